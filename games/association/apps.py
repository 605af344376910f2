from partyhub.rooms.gateway.registry import game_app_config

AssociationConfig = game_app_config(__name__, "Association")
