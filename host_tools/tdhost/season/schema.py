"""The league server's schema, its versions and their migration, and the organiser's commands
on it: set up a league (``init``), add a venue with its login (``add_venue``), revoke one.
Each venue logs in as a role of its own; row-level security lets it write only its own
venue's rows.  docs/league.md, "Roles".
"""

import re
import secrets
from typing import Any, Optional

import psycopg
from psycopg import sql

from tdhost.season.connection import SeasonError

# Migration N takes the schema from version N-1 to N; each is a list of statements in which
# {venues} is the league's group role of venue logins.  Never edit one that has shipped:
# add the next.
MIGRATIONS: list[list[str]] = [[
    "CREATE TABLE league (key text PRIMARY KEY, value text NOT NULL)",
    """CREATE TABLE venues (
        name text PRIMARY KEY,
        area text NOT NULL,
        role text NOT NULL UNIQUE,
        revoked boolean NOT NULL DEFAULT false,
        last_seq bigint NOT NULL DEFAULT 0,
        last_event text,
        pushed_at timestamptz)""",
    """CREATE TABLE tournaments (
        uid text PRIMARY KEY,
        venue text NOT NULL REFERENCES venues,
        number integer NOT NULL,
        name text NOT NULL,
        date date NOT NULL,
        profile text NOT NULL,
        entries integer NOT NULL DEFAULT 0,
        finished boolean NOT NULL DEFAULT false,
        UNIQUE (venue, number))""",
    """CREATE TABLE events (
        venue text NOT NULL REFERENCES venues,
        seq bigint NOT NULL,
        tournament text NOT NULL REFERENCES tournaments,
        at text NOT NULL,
        action text NOT NULL,
        payload jsonb NOT NULL,
        undoes bigint,
        batch bigint,
        PRIMARY KEY (venue, seq))""",
    """CREATE TABLE members (
        number integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key text NOT NULL UNIQUE,
        name text NOT NULL,
        first_venue text NOT NULL REFERENCES venues)""",
    """CREATE TABLE entrants (
        tournament text NOT NULL REFERENCES tournaments,
        venue text NOT NULL REFERENCES venues,
        key text NOT NULL,
        name text NOT NULL,
        member integer REFERENCES members,
        place integer,
        place_text text NOT NULL,
        points double precision,
        PRIMARY KEY (tournament, key))""",
    "CREATE INDEX entrants_member ON entrants (member)",
    # the venue of the login running the statement (none for a revoked venue)
    """CREATE FUNCTION league_venue() RETURNS text LANGUAGE sql STABLE AS
        $$ SELECT name FROM venues WHERE role = current_user AND NOT revoked $$""",
    "ALTER TABLE venues ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY venues_read ON venues FOR SELECT USING (true)",
    """CREATE POLICY venues_own ON venues FOR UPDATE
        USING (role = current_user AND NOT revoked) WITH CHECK (role = current_user)""",
    "ALTER TABLE tournaments ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY tournaments_read ON tournaments FOR SELECT USING (true)",
    "CREATE POLICY tournaments_add ON tournaments FOR INSERT WITH CHECK (venue = league_venue())",
    """CREATE POLICY tournaments_own ON tournaments FOR UPDATE
        USING (venue = league_venue()) WITH CHECK (venue = league_venue())""",
    "ALTER TABLE events ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY events_read ON events FOR SELECT USING (true)",
    "CREATE POLICY events_add ON events FOR INSERT WITH CHECK (venue = league_venue())",
    "ALTER TABLE members ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY members_read ON members FOR SELECT USING (true)",
    "CREATE POLICY members_add ON members FOR INSERT WITH CHECK (first_venue = league_venue())",
    "ALTER TABLE entrants ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY entrants_read ON entrants FOR SELECT USING (true)",
    "CREATE POLICY entrants_add ON entrants FOR INSERT WITH CHECK (venue = league_venue())",
    "CREATE POLICY entrants_own ON entrants FOR DELETE USING (venue = league_venue())",
    "REVOKE ALL ON league, venues, tournaments, events, members, entrants FROM PUBLIC",
    "GRANT SELECT ON league, venues, tournaments, events, members, entrants TO {venues}",
    "GRANT UPDATE (last_seq, last_event, pushed_at) ON venues TO {venues}",
    "GRANT INSERT ON tournaments, events, members, entrants TO {venues}",
    "GRANT UPDATE (entries, finished) ON tournaments TO {venues}",
    "GRANT DELETE ON entrants TO {venues}",
], [
    # 2: merged members (`tdhost season merge-members`): the merged member's keys lead to
    # the kept member, and each merge leaves an audit row
    """CREATE TABLE member_keys (
        key text PRIMARY KEY,
        number integer NOT NULL REFERENCES members)""",
    """CREATE TABLE member_merges (
        at timestamptz NOT NULL DEFAULT now(),
        by_login text NOT NULL DEFAULT current_user,
        kept integer NOT NULL REFERENCES members,
        merged integer NOT NULL,
        name text NOT NULL,
        key text NOT NULL,
        entries integer NOT NULL)""",
    "ALTER TABLE member_keys ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY member_keys_read ON member_keys FOR SELECT USING (true)",
    "ALTER TABLE member_merges ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY member_merges_read ON member_merges FOR SELECT USING (true)",
    "REVOKE ALL ON member_keys, member_merges FROM PUBLIC",
    "GRANT SELECT ON member_keys, member_merges TO {venues}",
    # each member's finished tournaments per venue, kept by each push for its venue (and by a
    # merge): the league and area standings sum these instead of every entrant
    """CREATE TABLE member_totals (
        member integer NOT NULL REFERENCES members,
        venue text NOT NULL REFERENCES venues,
        events integer NOT NULL,
        wins integer NOT NULL,
        best integer,
        points double precision NOT NULL,
        PRIMARY KEY (member, venue))""",
    "CREATE INDEX entrants_venue ON entrants (venue, member)",
    "ALTER TABLE member_totals ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY member_totals_read ON member_totals FOR SELECT USING (true)",
    """CREATE POLICY member_totals_add ON member_totals FOR INSERT
        WITH CHECK (venue = league_venue())""",
    "CREATE POLICY member_totals_own ON member_totals FOR DELETE USING (venue = league_venue())",
    "REVOKE ALL ON member_totals FROM PUBLIC",
    "GRANT SELECT, INSERT, DELETE ON member_totals TO {venues}",
], [
    # 3: a venue's member number (its register events' member_no, case folded as in the
    # venue's league file) is the member's identity: one number, one member; a name may be
    # two members' (two people of one name, told apart by their numbers), but only one
    # member without a number per name
    "ALTER TABLE members ADD COLUMN member_no text",
    "CREATE UNIQUE INDEX members_member_no ON members (member_no) WHERE member_no IS NOT NULL",
    "ALTER TABLE members DROP CONSTRAINT members_key_key",
    "CREATE UNIQUE INDEX members_key_unnumbered ON members (key) WHERE member_no IS NULL",
    "CREATE INDEX members_key ON members (key)",
], [
    # 4: a member number a venue gave to another name than the league's member of that
    # number (the player counts by name): kept by each push for its tournaments, read by the
    # organiser's page and by the venue (tdhost.season.notices)
    """CREATE TABLE number_clashes (
        tournament text NOT NULL REFERENCES tournaments,
        venue text NOT NULL REFERENCES venues,
        member_no text NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (tournament, member_no, name))""",
    "ALTER TABLE number_clashes ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY number_clashes_read ON number_clashes FOR SELECT USING (true)",
    """CREATE POLICY number_clashes_add ON number_clashes FOR INSERT
        WITH CHECK (venue = league_venue())""",
    """CREATE POLICY number_clashes_own ON number_clashes FOR DELETE
        USING (venue = league_venue())""",
    "REVOKE ALL ON number_clashes FROM PUBLIC",
    "GRANT SELECT, INSERT, DELETE ON number_clashes TO {venues}",
    # the league's answer to a ruling a venue's player asked for (its `ruling` event), given
    # by the organiser (`tdhost season answer-ruling`); venues read it with their pull
    """CREATE TABLE ruling_answers (
        venue text NOT NULL,
        seq bigint NOT NULL,
        answer text NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        by_login text NOT NULL DEFAULT current_user,
        PRIMARY KEY (venue, seq),
        FOREIGN KEY (venue, seq) REFERENCES events)""",
    "ALTER TABLE ruling_answers ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY ruling_answers_read ON ruling_answers FOR SELECT USING (true)",
    "REVOKE ALL ON ruling_answers FROM PUBLIC",
    "GRANT SELECT ON ruling_answers TO {venues}",
    # a clash's registration and bust times, the rulings, and whether an event was undone
    "CREATE INDEX events_tournament ON events (tournament, action)",
    "CREATE INDEX events_ruling ON events (tournament) WHERE action = 'ruling'",
    "CREATE INDEX events_undoes ON events (venue, undoes) WHERE undoes IS NOT NULL",
]]
SCHEMA_VERSION = len(MIGRATIONS)


def version(db: psycopg.Connection[Any]) -> int:
    """The schema version of the league server's database (0: no league yet)."""
    if db.execute("SELECT to_regclass('league')").fetchone() == (None,):
        return 0
    row = db.execute("SELECT value FROM league WHERE key = 'schema'").fetchone()
    return int(row[0]) if row else 0


def check_version(db: psycopg.Connection[Any]) -> None:
    """SeasonError unless the server's schema is the one this tdhost writes."""
    have = version(db)
    if have == 0:
        raise SeasonError("The league server holds no league yet: the organiser sets it up "
                          "with `tdhost season init`.")
    if have != SCHEMA_VERSION:
        raise SeasonError("The league server's schema is version %d; this tdhost speaks "
                          "version %d: %s." % (have, SCHEMA_VERSION,
                                               "update tdhost" if have > SCHEMA_VERSION else
                                               "the organiser runs `tdhost season init` "
                                               "again to migrate it"))


def group_role(db: psycopg.Connection[Any]) -> str:
    """The league's group role of venue logins: one per database (roles are the cluster's)."""
    row = db.execute("SELECT current_database()").fetchone()
    assert row is not None
    return "%s_venues" % row[0]


def init(db: psycopg.Connection[Any], name: Optional[str]) -> tuple[int, int]:
    """Create or migrate the league's schema in one transaction (a second organiser waits on
    the lock); *name*: the league's name (kept when None).  Returns (version before,
    version after)."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(hashtext('tdhost season schema'))")
        before = version(db)
        if before > SCHEMA_VERSION:
            raise SeasonError("The league server's schema is version %d, newer than this "
                              "tdhost's %d: update tdhost." % (before, SCHEMA_VERSION))
        group = group_role(db)
        if before == 0:
            exists = db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (group,))
            if exists.fetchone() is None:
                db.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(group)))
            if name is None:
                raise SeasonError("A new league needs its name: `tdhost season init URL "
                                  "--name \"LPPL Lincolnshire\"`.")
        for step in MIGRATIONS[before:]:
            for statement in step:
                db.execute(sql.SQL(statement).format(venues=sql.Identifier(group)))
        db.execute("INSERT INTO league VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE "
                   "SET value = excluded.value", (str(SCHEMA_VERSION),))
        if name is not None:
            db.execute("INSERT INTO league VALUES ('name', %s) ON CONFLICT (key) DO UPDATE "
                       "SET value = excluded.value", (name,))
    return before, SCHEMA_VERSION


def league_name(db: psycopg.Connection[Any]) -> str:
    row = db.execute("SELECT value FROM league WHERE key = 'name'").fetchone()
    return str(row[0]) if row else ""


def _role_for(db: psycopg.Connection[Any], venue: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", venue.casefold()).strip("_")[:30] or "venue"
    row = db.execute("SELECT current_database()").fetchone()
    assert row is not None
    return "%s_v_%s" % (row[0], slug)


def add_venue(db: psycopg.Connection[Any], name: str, area: str) -> tuple[str, str]:
    """A new venue *name* in *area* with a login of its own; returns (role, password): the
    password is shown once and kept nowhere (the server keeps its SCRAM hash)."""
    check_version(db)
    name = " ".join(name.split())
    if not name:
        raise SeasonError("A venue needs a name.")
    role = _role_for(db, name)
    password = secrets.token_urlsafe(24)
    with db.transaction():
        if db.execute("SELECT 1 FROM venues WHERE name = %s OR role = %s",
                      (name, role)).fetchone():
            raise SeasonError("The league already has a venue %s (or one whose login would "
                              "be %s): choose another name." % (name, role))
        if db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            raise SeasonError("The server already has a login %s (another league's?): "
                              "choose another venue name." % role)
        db.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE {}").format(
            sql.Identifier(role), sql.Literal(password), sql.Identifier(group_role(db))))
        db.execute("INSERT INTO venues (name, area, role) VALUES (%s, %s, %s)",
                   (name, " ".join(area.split()), role))
    return role, password


def revoke_venue(db: psycopg.Connection[Any], name: str) -> int:
    """Take the login of venue *name* away (what it pushed stays in the season) and close its
    open sessions; returns how many were closed."""
    check_version(db)
    with db.transaction():
        row = db.execute("UPDATE venues SET revoked = true WHERE name = %s RETURNING role",
                         (name,)).fetchone()
        if row is None:
            raise SeasonError("The league has no venue %s." % name)
        db.execute(sql.SQL("ALTER ROLE {} NOLOGIN PASSWORD NULL").format(
            sql.Identifier(row[0])))
    closed = db.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        "WHERE usename = %s", (row[0],)).fetchone()
    return int(closed[0]) if closed else 0
