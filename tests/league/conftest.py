"""The league-server tests' PostgreSQL: one throwaway cluster per session (tcsim.pgcluster),
a database per test (roles are the cluster's, and the league names them per database)."""

import pytest

from tcsim import pgcluster


@pytest.fixture(scope="session")
def cluster():
    c = pgcluster.start()
    if c is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    try:
        yield c
    finally:
        c.stop_and_remove()


@pytest.fixture
def league_db(cluster):
    """A fresh empty database; its organiser conninfo."""
    import psycopg
    name = "league%d" % next(cluster.names)
    with psycopg.connect(cluster.conninfo(), autocommit=True) as db:
        db.execute("CREATE DATABASE %s STRATEGY FILE_COPY" % name)  # fast when small
    return cluster.conninfo(name)
