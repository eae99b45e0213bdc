"""A throwaway PostgreSQL cluster for the league-server tests (Debian's postgresql): initdb,
pg_ctl, a unix socket in a temporary folder, no TCP.  As root the server runs as the
`postgres` user (or `nobody`); an organiser's login `tcadmin` is trusted, every other login
needs its password (scram-sha-256), so a revoked venue is really refused.  Each test gets a
database of its own (roles are the cluster's, and the league names them per database)."""

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile

import pytest


def _bin():
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


class Cluster:
    """The running server: conninfo strings for the organiser, restart, stop."""

    def __init__(self, bindir, base):
        self.bindir, self.base = bindir, base
        self.data = os.path.join(base, "data")
        self.user = []
        if os.geteuid() == 0:
            name = "postgres"
            try:
                pwd.getpwnam(name)
            except KeyError:
                name = "nobody"
            self.user = ["runuser", "-u", name, "--"]
            pw = pwd.getpwnam(name)
            os.chown(base, pw.pw_uid, pw.pw_gid)
        self.names = itertools.count(1)

    def _run(self, *args):
        subprocess.run(self.user + [os.path.join(self.bindir, args[0])] + list(args[1:]),
                       check=True, capture_output=True, timeout=60, cwd=self.base)

    def init(self):
        self._run("initdb", "-D", self.data, "-U", "tcadmin", "--no-sync", "-A", "trust")
        hba = os.path.join(self.data, "pg_hba.conf")
        with open(hba, "w") as f:
            f.write("local all tcadmin trust\nlocal all all scram-sha-256\n")

    def start(self):
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.base, "log"), "-w",
                  "-o", "-k %s -c listen_addresses='' -c fsync=off "
                  "-c full_page_writes=off" % self.base, "start")

    def stop(self, mode="fast"):
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def restart(self):
        self.stop("fast")  # closes every session, as a restart of the server does
        self.start()

    def conninfo(self, dbname="postgres", user="tcadmin", password=None):
        s = "host=%s dbname=%s user=%s" % (self.base, dbname, user)
        return s + (" password=%s" % password if password else "")


@pytest.fixture(scope="session")
def cluster():
    bindir = _bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    base = tempfile.mkdtemp(prefix="tcpg")  # short: a socket path has at most 107 bytes
    c = Cluster(bindir, base)
    try:
        c.init()
        c.start()
        yield c
    finally:
        try:
            c.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def league_db(cluster):
    """A fresh empty database; its organiser conninfo."""
    import psycopg
    name = "league%d" % next(cluster.names)
    with psycopg.connect(cluster.conninfo(), autocommit=True) as db:
        db.execute("CREATE DATABASE %s STRATEGY FILE_COPY" % name)  # fast when small
    return cluster.conninfo(name)
