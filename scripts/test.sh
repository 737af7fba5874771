#!/usr/bin/env bash
# Install, build and run the whole test suite twice: a warnings-as-errors
# build, then a second build under AddressSanitizer and UBSan; then the
# threaded tests (sessions and their statement threads, parallel scans, the
# thread pool, concurrent writers) under ThreadSanitizer; then build the
# libFuzzer targets with clang and replay their seed corpora.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/deps.sh

cmake -S . -B build -DCHV_WERROR=ON
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")

cmake -S . -B build-asan -DCHV_WERROR=ON -DCHV_SANITIZE=ON -DCHV_BUILD_BENCH=OFF
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j"$jobs")

cmake -S . -B build-tsan -DCHV_WERROR=ON -DCHV_TSAN=ON -DCHV_BUILD_BENCH=OFF
cmake --build build-tsan -j"$jobs"
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
   ctest --output-on-failure -j"$jobs" \
   -R '^(session_api|api_example|test_pool|test_scratch|test_source|test_stats|test_scan_stream|test_split|e2e_concurrent_stats|e2e_shell_pty|e2e_parallel_insert|test_sort_op|sql_select|sql_splits|sql_stats|sql_aggregates|sql_explain_analyze|sql_plan_rules|sql_grouping_sets|sql_window|sql_joins|sql_join_stage|e2e_join_build_duckdb|sql_subquery_any|sql_dynamic_filter|session_spill)$')

CC=clang cmake -S . -B build-fuzz -DCHV_WERROR=ON -DCHV_BUILD_FUZZ=ON \
  -DCHV_BUILD_TESTS=OFF -DCHV_BUILD_BENCH=OFF
cmake --build build-fuzz -j"$jobs"
(cd build-fuzz && ctest --output-on-failure -j"$jobs")
