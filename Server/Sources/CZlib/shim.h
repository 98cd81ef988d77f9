// The system zlib (zlib1g-dev on Debian and Ubuntu; part of the SDK on macOS), for inflating zip entries.
#include <zlib.h>
