/* Tests of src/types (placeholder until the full suite lands). */
#include "chv_test.h"
#include "types/types.h"

static void test_smoke(void) {
  struct chv_type *t;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse("int", &t, &err), &err);
  chv_type_free(t);
}

CHV_TEST_MAIN("types", test_smoke)
