"""The league across venues (docs/league.md): a PostgreSQL league server holds the season that
each venue's league file (tdhost.league) pushes to and pulls from.  Needs psycopg, the
optional extra ``tableclock-host[league]``; nothing else of tdhost imports this package."""
