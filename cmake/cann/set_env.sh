# CANN's top-level environment script: `source <prefix>/set_env.sh`. The work is bin/setenv.bash's.
# shellcheck source=/dev/null
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bin/setenv.bash"
