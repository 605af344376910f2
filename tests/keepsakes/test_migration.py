"""The keepsakes migration adds the two tables to a database with rooms in it, and unapplies."""
import pytest


@pytest.mark.django_db(transaction=True)
def test_the_migration_adds_keepsakes_beside_existing_rooms_and_goes_back():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    before, after = [("rooms", "0008_bounded_scoreboard")], [("rooms", "0009_keepsakes")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    assert "rooms_keepsake" not in connection.introspection.table_names()
    Room = executor.loader.project_state(before).apps.get_model("rooms", "Room")
    Room.objects.create(code="OLDK", host_token_hash="x")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    room = apps.get_model("rooms", "Room").objects.get(code="OLDK")
    Keepsake = apps.get_model("rooms", "Keepsake")
    Keepsake.objects.create(room=room, game_no=1, game="sketch", at=1, data={"drawings": []})
    apps.get_model("rooms", "KeepsakeLink").objects.create(room=room, key_hash="h", created_at=1)
    from django.db import IntegrityError, transaction
    with pytest.raises(IntegrityError):      # one keepsake per game of a room
        with transaction.atomic():
            Keepsake.objects.create(room=room, game_no=1, game="sketch", at=2, data={})
    room.delete()
    assert not Keepsake.objects.exists()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(before)
    assert "rooms_keepsake" not in connection.introspection.table_names()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
