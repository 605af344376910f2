from partyhub.rooms.gateway.registry import game_app_config

JinxConfig = game_app_config(__name__, "Jinx")
