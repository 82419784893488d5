# Copy to instance/config.py and adjust. Every key can also be set as an environment
# variable with the SCOREKEEPER_ prefix (e.g. SCOREKEEPER_DATABASE=/srv/scores.sqlite3).

# The SQLite file; default: instance/scorekeeper.sqlite3
# DATABASE = "/srv/scorekeeper/scorekeeper.sqlite3"

# A long random string. Without one, a key is generated into instance/secret_key on the
# first run and kept there.
# SECRET_KEY = "change me"

# The address phones open, for the score sheet's "Join from another phone" QR code when
# the sheet is opened on the serving computer itself (127.0.0.1). Without one,
# `scorekeeper serve --host 0.0.0.0` uses this computer's Wi-Fi address.
# PUBLIC_URL = "http://192.168.1.20:5000"

# Reverse proxies in front of the app (Caddy, nginx with HTTPS): 1 for one. Leave 0 when
# nothing stands in front: see docs/deploying.md, "On the internet, behind a reverse proxy".
# TRUSTED_PROXIES = 1

# The largest game file an import takes (docs/deploying.md, Configuration: why)
# GAME_FILE_MAX_BYTES = 512 * 1024
# GAME_FILE_MAX_DEALS = 500

# Saves and imports per client (address); RATELIMIT_ENABLED = False turns them off
# WRITE_LIMIT = "120 per minute"
# IMPORT_LIMIT = "20 per minute"
