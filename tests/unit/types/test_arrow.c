#include "chv_test.h"
static void t(void) {}
CHV_TEST_MAIN("x", t)
