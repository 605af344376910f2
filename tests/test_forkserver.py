"""tests/forkserver.py: a forked child is the process `python path argv` would be (its own
environment, folder, arguments, session, output, exit code, shutdown), and partyhub servers
forked from it serve."""
import json
import os
import signal
import subprocess
import textwrap

import pytest

from tests.forkserver import ForkServer, fork_server
from tests.liveserver import ROOT, Daphne, http

SCRIPT = textwrap.dedent("""
    import atexit, json, os, sys, threading, time
    atexit.register(lambda: print("atexit ran", flush=True))
    threading.Thread(target=lambda: (time.sleep(0.3), print("thread joined", flush=True))).start()
    print(json.dumps({"name": __name__, "argv": sys.argv, "cwd": os.getcwd(),
                      "only": os.environ.get("ONLY_HERE"), "home": os.environ.get("HOME"),
                      "sid": os.getsid(0) == os.getpid(), "partyhub": "partyhub" in sys.modules,
                      "django": "django" in sys.modules}), flush=True)
    if sys.argv[1] == "sleep":
        time.sleep(60)
    sys.exit(int(sys.argv[1]))
""")


@pytest.fixture(scope="module")
def forks():
    server = ForkServer(ROOT)
    yield server
    server.close()


def run(forks, tmp_path, *argv):
    script = tmp_path / "child.py"
    script.write_text(SCRIPT)
    log = tmp_path / "child.log"
    return forks.spawn(argv, {"ONLY_HERE": "yes", "PATH": os.environ["PATH"]}, tmp_path, log,
                       path=script), log


def test_a_child_has_its_own_environment_folder_arguments_and_session(forks, tmp_path):
    child, log = run(forks, tmp_path, "3", "more")
    assert child.wait(30) == 3
    lines = log.read_text().splitlines()
    seen = json.loads(lines[0])
    assert seen == {"name": "__main__", "argv": [str(tmp_path / "child.py"), "3", "more"],
                    "cwd": str(tmp_path), "only": "yes", "home": None, "sid": True,
                    "partyhub": False, "django": True}, "django preloaded, partyhub not"
    # The interpreter's end: its threads joined, then its exit functions.
    assert lines[1:] == ["thread joined", "atexit ran"]


def test_exit_codes_and_signals_come_back_as_popen_gives_them(forks, tmp_path):
    ok, _ = run(forks, tmp_path, "0")
    assert ok.wait(30) == 0 and ok.poll() == 0
    sleeper, _ = run(forks, tmp_path, "sleep")
    with pytest.raises(subprocess.TimeoutExpired):
        sleeper.wait(0.5)
    assert sleeper.poll() is None
    os.killpg(sleeper.pid, signal.SIGKILL)      # its own session, as start_new_session gives
    assert sleeper.wait(30) == -signal.SIGKILL


def test_a_forked_partyhub_server_serves_and_dies_like_a_started_one(tmp_path):
    forks = fork_server(ROOT)
    if forks is None:
        pytest.skip("PARTYHUB_TEST_FORK=0: servers are started as new Pythons")
    server = Daphne(tmp_path).migrate().start()
    try:
        assert type(server.proc).__name__ == "Forked"
        assert http("GET", server.base + "/healthz")[0] == 200
        with open(f"/proc/{server.proc.pid}/status") as f:
            assert f"PPid:\t{forks.proc.pid}" in f.read()
    finally:
        server.kill()
    assert server.proc.returncode == -signal.SIGKILL


def test_a_server_that_cannot_start_says_why(tmp_path):
    server = Daphne(tmp_path, env={"PARTYHUB_EXTRA_APPS": "tests.no_such_app"})
    with pytest.raises(RuntimeError, match="(?s)daphne exited.*no_such_app"):
        server.start(wait=60)
