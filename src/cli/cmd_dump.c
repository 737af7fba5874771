/* chive dump (not built yet). */
#include "cli/cli.h"

#include <stdio.h>

int cli_dump(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "chive dump: not available in this build\n");
  return 1;
}
