"""Hosts as Linux network namespaces on one machine, for tests/deploy/test_multihost.py.

A `Lab` is a switch (a namespace holding a bridge, so that the machine's own firewall, where
Docker sets FORWARD to DROP and bridged frames pass through iptables, never sees the hosts'
traffic), one namespace per host with a veth to the bridge, and one veth from the machine's
own namespace, where the test runs, so that it reaches every host by its address. Every host
is an address on one /24 that no route of the machine uses.

Names carry the creator's pid (`phmh<pid>-...`): a lab left behind by a test process that died
without cleaning up is removed by the next one (`sweep`).
"""
from __future__ import annotations

import ipaddress
import os
import random
import re
import shutil
import signal
import subprocess
import time

PREFIX = "phmh"


def ip(*args: str, check=True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30, check=check)


def missing() -> str | None:
    """Why no lab can be made here, or None."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "no `ip` (iproute2)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    made = ip("netns", "add", probe, check=False)
    if made.returncode:
        return f"`ip netns add` fails: {made.stderr.strip()}"
    ip("netns", "del", probe, check=False)
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def sweep() -> list[str]:
    """Remove the namespaces (and their processes) of labs whose test process is gone."""
    gone = []
    for line in ip("netns", "list", check=False).stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        m = re.fullmatch(rf"{PREFIX}(\d+)-.+", name)
        if m and not _alive(int(m.group(1))):
            _kill_all(name)
            ip("netns", "del", name, check=False)
            gone.append(name)
    for line in ip("-o", "link", "show", check=False).stdout.splitlines():
        m = re.match(rf"\d+: ({PREFIX}(\d+)t)[@:]", line)
        if m and not _alive(int(m.group(2))):
            ip("link", "del", m.group(1), check=False)
    return gone


def _kill_all(ns: str) -> int:
    """SIGKILL every process in namespace `ns`; how many there were."""
    pids = [int(p) for p in ip("netns", "pids", ns, check=False).stdout.split()]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    end = time.monotonic() + 10
    while time.monotonic() < end and any(_alive(p) and not _zombie(p) for p in pids):
        time.sleep(0.02)
    return len(pids)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def free_subnet() -> ipaddress.IPv4Network:
    """A 10.231.x.0/24 that no address or route of this machine overlaps."""
    used = []
    for line in ip("-4", "route", "show", "table", "all", check=False).stdout.splitlines():
        word = line.split()[0] if line.split() else ""
        if word[:1].isdigit():
            used.append(ipaddress.ip_network(word if "/" in word else word + "/32", strict=False))
    choices = list(range(256))
    random.shuffle(choices)
    for x in choices:
        net = ipaddress.ip_network(f"10.231.{x}.0/24")
        if not any(net.overlaps(u) for u in used):
            return net
    raise RuntimeError("no free 10.231.x.0/24 on this machine")


class Host:
    """One namespace with one address: `run` starts a process in it; `kill` ends every process
    in it at once (a crashed host); `unplug` takes its link down."""

    def __init__(self, lab: Lab, name: str, address: str):
        self.lab, self.name, self.address = lab, name, address
        self.ns = f"{lab.tag}-{name}"

    @property
    def prefix(self) -> tuple[str, ...]:
        """The command prefix that runs a program on this host."""
        return ("ip", "netns", "exec", self.ns)

    def kill(self) -> int:
        return _kill_all(self.ns)

    def unplug(self):
        ip("-n", self.ns, "link", "set", "eth0", "down")


class Lab:
    def __init__(self):
        self.tag = f"{PREFIX}{os.getpid()}"
        self.switch = f"{self.tag}-sw"
        self.link = f"{self.tag}t"           # the test's own link, in the machine's namespace
        self.net = free_subnet()
        self.hosts: dict[str, Host] = {}
        self.made: list[str] = []
        self._next = 10
        self.own_address = str(self.net[1])
        self.second_address = str(self.net[2])   # the test's too: a client on another address

    def start(self) -> Lab:
        sweep()
        self._netns(self.switch)
        self._in(self.switch, "link", "add", "br0", "type", "bridge")
        self._in(self.switch, "link", "set", "br0", "up")
        self._in(self.switch, "link", "add", "name", "test", "type", "veth", "peer", "name", self.link, "netns", str(os.getpid()))
        self._in(self.switch, "link", "set", "test", "master", "br0", "up")
        ip("addr", "add", f"{self.own_address}/{self.net.prefixlen}", "dev", self.link)
        ip("addr", "add", f"{self.second_address}/{self.net.prefixlen}", "dev", self.link)
        ip("link", "set", self.link, "up")
        return self

    def _netns(self, name: str):
        ip("netns", "add", name)
        self.made.append(name)
        ip("-n", name, "link", "set", "lo", "up")

    def _in(self, ns: str, *args: str):
        ip("-n", ns, *args)

    def host(self, name: str) -> Host:
        """A new host on the switch, with the next free address."""
        address = str(self.net[self._next])
        self._next += 1
        h = Host(self, name, address)
        self._netns(h.ns)
        port = f"to-{name}"[:15]     # its port on the switch
        self._in(self.switch, "link", "add", "name", port, "type", "veth", "peer", "name", "eth0", "netns", h.ns)
        self._in(self.switch, "link", "set", port, "master", "br0", "up")
        self._in(h.ns, "addr", "add", f"{address}/{self.net.prefixlen}", "dev", "eth0")
        self._in(h.ns, "link", "set", "eth0", "up")
        self.hosts[name] = h
        return h

    def close(self):
        """Every process of every host killed, every namespace and link removed."""
        for ns in reversed(self.made):
            _kill_all(ns)
            ip("netns", "del", ns, check=False)
        ip("link", "del", self.link, check=False)    # gone with its peer already, as a rule
        self.made.clear()

    def leftovers(self) -> list[str]:
        """Namespaces or links of this lab still there (none after `close`)."""
        names = ip("netns", "list", check=False).stdout + ip("-o", "link", "show", check=False).stdout
        return sorted(set(re.findall(rf"{self.tag}[\w-]*", names)))
