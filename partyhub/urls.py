from importlib.util import find_spec

from django.apps import apps
from django.contrib import admin
from django.urls import include, path

from partyhub import adminlogin, metrics, web
from partyhub.keepsakes import views as keepsakes
from partyhub.rooms.transport import api, deckapi, photoapi

handler400 = web.bad_request

urlpatterns = [
    path("", web.home, name="home"),
    path("tv/<str:code>", web.tv, name="tv"),
    path("j/<str:code>", web.phone, name="phone"),
    path("r/<str:code>/keepsakes", keepsakes.page, name="keepsakes"),
    path("r/<str:code>/keepsakes/<int:game_no>/drawing/<int:n>.<str:kind>", keepsakes.drawing),
    path("r/<str:code>/cards/<str:card_id>.webp", api.deck_card),
    path("healthz", api.healthz),
    path("metrics", metrics.view),
    path("api/games", deckapi.games_list),
    path("api/rooms", api.rooms_create),
    path("api/rooms/<str:code>", api.rooms_summary),
    path("api/rooms/<str:code>/join", api.rooms_join),
    path("api/rooms/<str:code>/claim", api.rooms_claim),
    path("api/rooms/<str:code>/audience", api.rooms_audience),
    path("api/rooms/<str:code>/qr.svg", api.rooms_qr),
    path("api/rooms/<str:code>/log", api.rooms_log),
    path("api/rooms/<str:code>/keepsakes", keepsakes.keepsakes_pass),
    path("api/rooms/<str:code>/keepsakes/share", keepsakes.keepsakes_share),
    path("api/rooms/<str:code>/decks", api.decks_upload),
    path("api/rooms/<str:code>/photos", photoapi.photos_add),
    path("api/rooms/<str:code>/photos/<str:card>", photoapi.photo_remove),
    path("api/decks", deckapi.decks_list),
    path("api/decks/redeem", deckapi.decks_redeem),
    path("api/decks/<str:deck_id>", deckapi.deck_detail),
    path("api/decks/<str:deck_id>/share", deckapi.deck_share),
    path("admin/login/", adminlogin.login),      # before the admin's own: throttled
    path("admin/", admin.site.urls),
]

# A game app may bring its own small views (klepka's dictionary check).
for app in apps.get_app_configs():
    if app.name.startswith("games.") and find_spec(f"{app.name}.urls"):
        urlpatterns.append(path("", include(f"{app.name}.urls")))
