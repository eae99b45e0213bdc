"""A throwaway PostgreSQL cluster (Debian's postgresql) for the league server's tests and
`make demo-league`: initdb, pg_ctl, a unix socket in a temporary folder, no TCP.  As root the
server runs as the `postgres` user (or `nobody`); an organiser's login `tcadmin` is trusted,
every other login needs its password (scram-sha-256), so a revoked venue is really refused."""

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile


def bindir():
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

    def stop_and_remove(self):
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.base, ignore_errors=True)

    def conninfo(self, dbname="postgres", user="tcadmin", password=None):
        s = "host=%s dbname=%s user=%s" % (self.base, dbname, user)
        return s + (" password=%s" % password if password else "")




def start() -> "Cluster | None":
    """A new cluster, started (None when PostgreSQL is not installed); ``stop_and_remove``
    ends it."""
    found = bindir()
    if found is None:
        return None
    c = Cluster(found, tempfile.mkdtemp(prefix="tcpg"))  # short: a socket path <= 107 bytes
    c.init()
    c.start()
    return c
