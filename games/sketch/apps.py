from partyhub.rooms.gateway.registry import game_app_config

SketchConfig = game_app_config(__name__, "Sketch")
