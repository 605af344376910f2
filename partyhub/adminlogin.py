"""The admin's login, throttled: after FAILURES failed logins from one address (or
NAME_FAILURES for one user name, from anywhere) within WINDOW seconds, further attempts get
429 until the oldest failure is that old; a right password is refused too meanwhile, so
guessing cannot go on (docs/security.md). Counted per process, like the other windows."""
from django.contrib import admin
from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpResponse

from partyhub.http.limits import Window, client_address

FAILURES, NAME_FAILURES, WINDOW = 5, 20, 15 * 60
BY_ADDRESS = Window(FAILURES, WINDOW)
BY_NAME = Window(NAME_FAILURES, WINDOW)


def _name(request) -> str:
    return str(request.POST.get("username", ""))[:150].casefold()


@receiver(user_login_failed)
def _failed(sender, credentials, request=None, **kwargs):
    if request is None:
        return
    BY_ADDRESS.allow(client_address(request))
    BY_NAME.allow(_name(request))


def login(request, extra_context=None):
    if request.method == "POST" and (BY_ADDRESS.full(client_address(request))
                                     or BY_NAME.full(_name(request))):
        response = HttpResponse(f"Too many failed logins: try again in {WINDOW // 60} minutes.\n",
                                status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(WINDOW)
        return response
    return admin.site.login(request, extra_context)
