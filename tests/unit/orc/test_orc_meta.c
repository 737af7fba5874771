/* Tests of the ORC tail model (src/format/orc/orc_meta.c) and the Hive
** mapping (orc_schema.c): the tail of every fixture under
** shared/fixtures/orc (and orc/corrupt) parses, or fails as the fixtures'
** README says, with the row and stripe counts, versions, codecs and schemas
** the README gives; its Metadata, every stripe footer and the index streams
** decode; statistics and user metadata hold what the expected rows imply;
** every message round-trips through the writers, and whole tails rewritten
** with each codec read back the same; truncated and bit-flipped tails fail
** cleanly; hand-built tails with one fault each fail with a message naming
** it; the Hive mapping of every ORC kind and its choices. */
#include "chv_test.h"
#include "format/orc/orc_int.h"

#include "chive/fs.h"

/* ---- helpers ----------------------------------------------------------- */

static const char *fixture_dir(void) {
  static char dir[600];
  snprintf(dir, sizeof dir, "%s/orc", chv_test_fixtures());
  return dir;
}

static char *fixture_path(const char *name) {
  static char p[1024];
  snprintf(p, sizeof p, "%s/%s", fixture_dir(), name);
  return p;
}

static char *load(const char *name, size_t *len) {
  char *data = NULL;
  struct chv_error err;
  if (chv_fs_read_all(chv_fs_local(), fixture_path(name), &data, len, -1,
                      &err) != CHV_OK) {
    fprintf(stderr, "cannot read %s: %s\n", name, err.msg);
    return NULL;
  }
  return data;
}

static int open_fixture(const char *name, struct chv_orc_tail **t,
                        struct chv_error *err) {
  struct chv_file *f;
  CHV_RETURN_IF_ERR(chv_fs_open(chv_fs_local(), fixture_path(name), &f, err));
  int rc = chv_orc_tail_read(f, -1, name, t, err);
  chv_file_close(f);
  return rc;
}

static char *orc_type_string(const struct chv_orc_footer *f) {
  struct chv_buf b;
  chv_buf_init(&b);
  chv_orc_type_format(f, 0, &b);
  return b.data ? chv_buf_detach(&b) : chv_strdup("");
}

/* ---- every fixture ----------------------------------------------------- */

struct fixture {
  const char *name;
  const char *version; /* as the README gives it; "none" = no version */
  const char *codec;
  uint64_t rows; /* the footer's number_of_rows (0 when absent) */
  uint32_t stripes;
  const char *schema; /* ORC's spelling; a prefix when truncated */
  bool truncated;
};

/* The README's ORC table. */
static const struct fixture fixtures[] = {
    {"TestOrcFile.emptyFile.orc", "0.12", "NONE", 0, 0,
     "struct<boolean1:boolean,byte1:tinyint,short1:smallint,int1:int,long1:"
     "bigint,float1:float,double1:double,bytes1:binary,string1:string,middle:"
     "struct<list:array<struct<int1:int,string1:string>>>,list:arr",
     1},
    {"TestOrcFile.metaData.orc", "0.12", "NONE", 1, 1,
     "struct<boolean1:boolean,byte1:tinyint,short1:smallint,int1:int,long1:"
     "bigint,float1:float,double1:double,bytes1:binary,string1:string,middle:"
     "struct<list:array<struct<int1:int,string1:string>>>,list:arr",
     1},
    {"TestOrcFile.test1.orc", "0.12", "ZLIB", 2, 1,
     "struct<boolean1:boolean,byte1:tinyint,short1:smallint,int1:int,long1:"
     "bigint,float1:float,double1:double,bytes1:binary,string1:string,middle:"
     "struct<list:array<struct<int1:int,string1:string>>>,list:arr",
     1},
    {"TestOrcFile.testDate1900.orc", "0.12", "ZLIB", 70000, 8,
     "struct<time:timestamp,date:date>", 0},
    {"TestOrcFile.testDate2038.orc", "0.12", "ZLIB", 212000, 28,
     "struct<time:timestamp,date:date>", 0},
    {"TestOrcFile.testMemoryManagementV11.orc", "0.11", "NONE", 2500, 25,
     "struct<int1:int,string1:string>", 0},
    {"TestOrcFile.testMemoryManagementV12.orc", "0.12", "NONE", 2500, 4,
     "struct<int1:int,string1:string>", 0},
    {"TestOrcFile.testSnappy.orc", "0.12", "SNAPPY", 10000, 2,
     "struct<int1:int,string1:string>", 0},
    {"TestOrcFile.testStringAndBinaryStatistics.orc", "0.12", "ZLIB", 4, 1,
     "struct<bytes1:binary,string1:string>", 0},
    {"TestOrcFile.testStripeLevelStats.orc", "0.12", "ZLIB", 11000, 3,
     "struct<int1:int,string1:string>", 0},
    {"TestOrcFile.testTimestamp.orc", "0.11", "ZLIB", 12, 1, "timestamp", 0},
    {"TestOrcFile.testUnionAndTimestamp.orc", "0.12", "NONE", 5077, 2,
     "struct<time:timestamp,union:uniontype<int,string>,decimal:decimal(38,"
     "18)>",
     0},
    {"TestOrcFile.testWithoutCompressionBlockSize.orc", "0.12", "SNAPPY", 0, 1,
     "bigint", 0},
    {"TestOrcFile.testWithoutIndex.orc", "0.12", "SNAPPY", 50000, 10,
     "struct<int1:int,string1:string>", 0},
    {"TestStringDictionary.testRowIndex.orc", "0.12", "ZLIB", 32768, 1,
     "struct<str:string>", 0},
    {"TestVectorOrcFile.testLz4.orc", "0.12", "LZ4", 10000, 2,
     "struct<x:bigint,y:int,z:bigint>", 0},
    {"TestVectorOrcFile.testLzo.orc", "0.12", "LZO", 10000, 2,
     "struct<x:bigint,y:int,z:bigint>", 0},
    {"TestVectorOrcFile.testZstd.0.12.orc", "0.12", "ZSTD", 10000, 1,
     "struct<x:bigint,y:int,z:bigint>", 0},
    {"bad_bloom_filter_1.6.0.orc", "0.12", "ZLIB", 5, 1,
     "struct<id:bigint,name:string>", 0},
    {"bad_bloom_filter_1.6.11.orc", "0.12", "ZLIB", 5, 1,
     "struct<id:bigint,name:string>", 0},
    {"complextypes_iceberg.orc", "0.12", "ZLIB", 1, 1,
     "struct<id:bigint,int_array:array<int>,int_array_array:array<array<int>"
     ">,int_map:map<string,int>,int_map_array:array<map<string,int>>,nested_"
     "struct:struct<a:int,b:array<int>,c:struct<d:array<array<stru",
     1},
    {"decimal.orc", "0.12", "NONE", 6000, 1, "struct<_col0:decimal(10,5)>", 0},
    {"decimal64_v2.orc", "1.9999", "ZLIB", 10, 1,
     "struct<a:bigint,b:decimal(12,0),c:decimal(20,2),d:decimal(12,2),e:"
     "decimal(2,2)>",
     0},
    {"decimal64_v2_cplusplus.orc", "1.9999", "ZLIB", 10, 1,
     "struct<a:bigint,b:decimal(10,2),c:decimal(2,2),d:decimal(2,2),e:"
     "decimal(2,2)>",
     0},
    {"demo-11-zlib.orc", "0.11", "ZLIB", 1920800, 385,
     "struct<_col0:int,_col1:string,_col2:string,_col3:string,_col4:int,_"
     "col5:string,_col6:int,_col7:int,_col8:int>",
     0},
    {"demo-12-zlib.orc", "0.12", "ZLIB", 1920800, 1,
     "struct<_col0:int,_col1:string,_col2:string,_col3:string,_col4:int,_"
     "col5:string,_col6:int,_col7:int,_col8:int>",
     0},
    {"nulls-at-end-snappy.orc", "0.12", "SNAPPY", 70000, 1,
     "struct<_col0:tinyint,_col1:smallint,_col2:int,_col3:bigint,_col4:"
     "float,_col5:double,_col6:boolean>",
     0},
    {"orc-file-11-format.orc", "0.11", "NONE", 7500, 2,
     "struct<boolean1:boolean,byte1:tinyint,short1:smallint,int1:int,long1:"
     "bigint,float1:float,double1:double,bytes1:binary,string1:string,middle:"
     "struct<list:array<struct<int1:int,string1:string>>>,list:arr",
     1},
    {"orc_index_int_string.orc", "0.12", "ZLIB", 6000, 1,
     "struct<_col0:int,_col1:varchar(4)>", 0},
    {"orc_no_format.orc", "none", "ZLIB", 5, 1,
     "struct<_col0:array<string>,_col1:map<int,string>,_col2:struct<name:"
     "string,score:int>>",
     0},
    {"over1k_bloom.orc", "0.12", "ZLIB", 2098, 2,
     "struct<_col0:tinyint,_col1:smallint,_col2:int,_col3:bigint,_col4:"
     "float,_col5:double,_col6:boolean,_col7:string,_col8:timestamp,_col9:"
     "decimal(4,2),_col10:binary>",
     0},
    {"corrupt/missing_blob_stream_in_string_dict.orc", "0.12", "NONE", 7300, 1,
     "struct<id:int,bool_col:boolean,tinyint_col:tinyint,smallint_col:"
     "smallint,int_col:int,bigint_col:bigint,float_col:float,double_col:"
     "double,date_string_col:string,string_col:string,timestamp_col:timestam",
     1},
    {"corrupt/missing_length_stream_in_string_dict.orc", "0.12", "ZLIB", 300, 1,
     "struct<id:int,bool_col:boolean,tinyint_col:tinyint,smallint_col:"
     "smallint,int_col:int,bigint_col:bigint,float_col:float,double_col:"
     "double,date_string_col:string,string_col:string,timestamp_col:timestam",
     1},
    {"corrupt/negative_dict_entry_lengths.orc", "0.12", "ZLIB", 310, 1,
     "struct<id:int,bool_col:boolean,tinyint_col:tinyint,smallint_col:"
     "smallint,int_col:int,bigint_col:bigint,float_col:float,double_col:"
     "double,date_string_col:string,string_col:string,timestamp_col:timestam",
     1},
    {"corrupt/stripe_footer_bad_column_encodings.orc", "0.12", "ZLIB", 5, 1,
     "struct<d1:decimal(9,0),d2:decimal(10,0),d3:decimal(20,10),d4:decimal("
     "38,38),d5:decimal(10,5)>",
     0},
};

static const char *version_string(const struct chv_orc_tail *t) {
  static char v[32];
  if (t->ps.nversion == 0) return "none";
  snprintf(v, sizeof v, "%u.%u", t->ps.version[0], t->ps.version[1]);
  return v;
}

/* Every stripe footer of a tail, checked against its stripe. */
static int walk_stripes(const struct chv_orc_tail *t,
                        const struct chv_orc_input *in, struct chv_error *err) {
  chv_orc_codec *codec;
  CHV_RETURN_IF_ERR(chv_orc_tail_codec_open(t, &codec, err));
  chv_arena *a;
  chv_arena_open(0, &a);
  int rc = CHV_OK;
  for (uint32_t s = 0; s < t->footer.nstripes && rc == CHV_OK; s++) {
    struct chv_orc_stripe_footer sf;
    rc = chv_orc_stripe_footer_read(t, in, codec, s, a, &sf, err);
    if (rc != CHV_OK) break;
    const struct chv_orc_stripe_info *si = &t->footer.stripes[s];
    CHV_CHECK_EQ_INT(sf.ncolumns, t->footer.ntypes);
    uint64_t end = si->offset;
    for (uint32_t i = 0; i < sf.nstreams; i++) {
      CHV_CHECK(sf.streams[i].offset == end);
      end += sf.streams[i].length;
    }
    CHV_CHECK(end == si->offset + si->index_length + si->data_length);
    /* The stripe footer writes back to the same message. */
    struct chv_buf b1, b2;
    chv_buf_init(&b1);
    chv_buf_init(&b2);
    CHV_CHECK_OK(chv_orc_stripe_footer_write(&sf, &b1, err), err);
    chv_orc_codec *none;
    chv_orc_codec_open(CHV_ORC_COMP_NONE, 1024, &none, err);
    struct chv_orc_stripe_footer sf2;
    struct chv_orc_tail t2 = *t;
    t2.footer.stripes =
        chv_arena_alloc(a, t->footer.nstripes * sizeof *t2.footer.stripes);
    memcpy(t2.footer.stripes, t->footer.stripes,
           t->footer.nstripes * sizeof *t2.footer.stripes);
    CHV_CHECK_OK(chv_orc_stripe_footer_decode(&t2, none, s, b1.data, b1.len, a,
                                              &sf2, err),
                 err);
    CHV_CHECK_OK(chv_orc_stripe_footer_write(&sf2, &b2, err), err);
    CHV_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
    chv_orc_codec_close(none);
    chv_buf_free(&b1);
    chv_buf_free(&b2);
  }
  chv_arena_close(a);
  chv_orc_codec_close(codec);
  return rc;
}

static void test_fixture_tails(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(fixtures); i++) {
    const struct fixture *fx = &fixtures[i];
    struct chv_error err;
    struct chv_orc_tail *t = NULL;
    int rc = open_fixture(fx->name, &t, &err);
    if (rc != CHV_OK) {
      fprintf(stderr, "%s: %s\n", fx->name, err.msg);
      CHV_CHECK(rc == CHV_OK);
      continue;
    }
    CHV_CHECK_STREQ(version_string(t), fx->version);
    CHV_CHECK_STREQ(chv_orc_compression_name(t->compression), fx->codec);
    CHV_CHECK_EQ_INT(t->footer.number_of_rows, fx->rows);
    CHV_CHECK_EQ_INT(t->footer.nstripes, fx->stripes);
    char *s = orc_type_string(&t->footer);
    if (fx->truncated)
      CHV_CHECK(strncmp(s, fx->schema, strlen(fx->schema)) == 0);
    else
      CHV_CHECK_STREQ(s, fx->schema);
    chv_free(s);
    struct chv_type *h = NULL;
    CHV_CHECK_OK(chv_orc_hive_schema(t, &h, &err), &err);
    chv_type_free(h);

    /* The same tail from memory. */
    size_t len;
    char *data = load(fx->name, &len);
    struct chv_orc_tail *tm = NULL;
    CHV_CHECK_OK(chv_orc_tail_parse(data, len, fx->name, &tm, &err), &err);
    if (tm) {
      CHV_CHECK_EQ_INT(tm->nrows, t->nrows);
      CHV_CHECK_EQ_INT(tm->footer.ntypes, t->footer.ntypes);
    }
    chv_orc_tail_close(tm);

    struct chv_orc_input in;
    chv_orc_input_memory(&in, data, len, fx->name);
    struct chv_orc_metadata *md = NULL;
    rc = chv_orc_metadata_open(t, &in, &md, &err);
    if (strstr(fx->name, "missing_length_stream")) {
      /* Its Metadata section is damaged too. */
      CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
      CHV_CHECK_CONTAINS(err.msg, "missing_length_stream_in_string_dict.orc: "
                                  "metadata:");
    } else {
      CHV_CHECK_OK(rc, &err);
      if (md && md->nstripes)
        CHV_CHECK_EQ_INT(md->nstripes, t->footer.nstripes);
    }
    chv_orc_metadata_close(md);

    rc = walk_stripes(t, &in, &err);
    if (strstr(fx->name, "stripe_footer_bad_column_encodings")) {
      CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
      CHV_CHECK_CONTAINS(err.msg, "stripe_footer_bad_column_encodings.orc: "
                                  "stripe 0 footer:");
    } else {
      if (rc != CHV_OK) fprintf(stderr, "%s: %s\n", fx->name, err.msg);
      CHV_CHECK(rc == CHV_OK);
    }
    free(data);
    chv_orc_tail_close(t);
  }
}

static void test_edge_fixtures(void) {
  struct chv_error err;
  struct chv_orc_tail *t = NULL;
  /* A future version: refused, as ORC Java refuses it. */
  CHV_CHECK_EQ_INT(open_fixture("version1999.orc", &t, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "version1999.orc: written by a future ORC "
                              "version 19.99");
  /* A 0-byte file is an empty file: 0 rows of struct<>. */
  CHV_REQUIRE_OK(open_fixture("zero.orc", &t, &err), &err);
  CHV_CHECK(t->empty_file);
  CHV_CHECK_EQ_INT(t->nrows, 0);
  CHV_CHECK_EQ_INT(t->footer.nstripes, 0);
  char *s = orc_type_string(&t->footer);
  CHV_CHECK_STREQ(s, "struct<>");
  chv_free(s);
  struct chv_orc_metadata *md;
  struct chv_orc_input in;
  chv_orc_input_memory(&in, "", 0, "zero.orc");
  CHV_CHECK_OK(chv_orc_metadata_open(t, &in, &md, &err), &err);
  CHV_CHECK_EQ_INT(md->nstripes, 0);
  chv_orc_metadata_close(md);
  chv_orc_tail_close(t);

  /* No magic and no version in the PostScript: Hive 0.11, and the file's
  ** own "ORC" header is what makes it ORC. */
  CHV_REQUIRE_OK(open_fixture("orc_no_format.orc", &t, &err), &err);
  CHV_CHECK(!t->ps.has_magic);
  CHV_CHECK_EQ_INT(t->ps.nversion, 0);
  CHV_CHECK_EQ_INT(t->version, CHV_ORC_V0_11);
  CHV_CHECK_EQ_INT(t->ps.writer_version, 0);
  CHV_CHECK_EQ_INT(t->block_size, 262144);
  CHV_CHECK_EQ_INT(t->nrows, 5);
  chv_orc_tail_close(t);

  /* No compression_block_size: the 256 KiB default; no number_of_rows:
  ** the stripe's 100 rows count. */
  CHV_REQUIRE_OK(
      open_fixture("TestOrcFile.testWithoutCompressionBlockSize.orc", &t, &err),
      &err);
  CHV_CHECK(!t->ps.has_compression_block_size);
  CHV_CHECK_EQ_INT(t->block_size, CHV_ORC_DEFAULT_BLOCK_SIZE);
  CHV_CHECK(!t->footer.has_number_of_rows);
  CHV_CHECK_EQ_INT(t->nrows, 100);
  chv_orc_tail_close(t);

  /* The v2 draft is recognised as such. */
  CHV_REQUIRE_OK(open_fixture("decimal64_v2.orc", &t, &err), &err);
  CHV_CHECK_EQ_INT(t->version, CHV_ORC_V_UNSTABLE_2);
  chv_orc_tail_close(t);

  /* Writer and software version of the C++ writer's files. */
  CHV_REQUIRE_OK(open_fixture("bad_bloom_filter_1.6.11.orc", &t, &err), &err);
  CHV_CHECK(t->footer.has_writer && t->footer.writer == 1);
  CHV_CHECK_STREQ(t->footer.software_version, "1.6.11");
  chv_orc_tail_close(t);
}

/* ---- statistics and user metadata -------------------------------------- */

static void test_statistics(void) {
  struct chv_error err;
  struct chv_orc_tail *t;
  /* Rows: bytes1 of 5, 4, 6 bytes and a NULL; string1 "foo", "bar", NULL,
  ** "hi". */
  CHV_REQUIRE_OK(
      open_fixture("TestOrcFile.testStringAndBinaryStatistics.orc", &t, &err),
      &err);
  CHV_REQUIRE(t->footer.nstatistics == 3);
  const struct chv_orc_column_stats *s = t->footer.statistics;
  CHV_CHECK_EQ_INT(s[0].number_of_values, 4);
  CHV_CHECK(s[1].has_binary && s[1].binary_stats.sum == 15);
  CHV_CHECK_EQ_INT(s[1].number_of_values, 3);
  CHV_CHECK(s[1].has_has_null && s[1].has_null);
  CHV_CHECK(s[2].has_string && s[2].string_stats.sum == 8);
  CHV_CHECK(s[2].string_stats.min.len == 3 &&
            memcmp(s[2].string_stats.min.data, "bar", 3) == 0);
  CHV_CHECK(s[2].string_stats.max.len == 2 &&
            memcmp(s[2].string_stats.max.data, "hi", 2) == 0);
  chv_orc_tail_close(t);

  /* test1's two rows: byte1 1 and 100, short1 1024 and 2048, boolean1 false
  ** and true, long1 twice INT64_MAX (no sum: it overflows), double1 -15 and
  ** -5. */
  CHV_REQUIRE_OK(open_fixture("TestOrcFile.test1.orc", &t, &err), &err);
  s = t->footer.statistics;
  CHV_REQUIRE(t->footer.nstatistics == 24);
  CHV_CHECK(s[1].has_bucket && s[1].bucket_stats.ncount == 1 &&
            s[1].bucket_stats.count[0] == 1);
  CHV_CHECK(s[2].has_int && s[2].int_stats.min == 1 &&
            s[2].int_stats.max == 100 && s[2].int_stats.sum == 101);
  CHV_CHECK(s[3].int_stats.min == 1024 && s[3].int_stats.max == 2048);
  CHV_CHECK(s[5].int_stats.max == INT64_MAX && !s[5].int_stats.has_sum);
  CHV_CHECK(s[7].has_double && s[7].double_stats.min == -15.0 &&
            s[7].double_stats.max == -5.0 && s[7].double_stats.sum == -20.0);
  CHV_CHECK(t->footer.has_row_index_stride &&
            t->footer.row_index_stride == 10000);
  chv_orc_tail_close(t);

  /* User metadata. */
  CHV_REQUIRE_OK(open_fixture("TestOrcFile.metaData.orc", &t, &err), &err);
  CHV_REQUIRE(t->footer.nmetadata == 3);
  CHV_CHECK_STREQ(t->footer.metadata[2].key, "my.meta");
  static const uint8_t mm[] = {1, 2, 3, 4, 5, 6, 7, 0xff, 0xfe, 127, 0x80};
  CHV_CHECK(t->footer.metadata[2].value.len == sizeof mm &&
            memcmp(t->footer.metadata[2].value.data, mm, sizeof mm) == 0);
  CHV_CHECK_STREQ(t->footer.metadata[0].key, "big");
  CHV_CHECK_EQ_INT(t->footer.metadata[0].value.len, 40000);
  chv_orc_tail_close(t);

  /* Stripe statistics of testStripeLevelStats: the row counts per stripe
  ** add up. */
  size_t len;
  char *data = load("TestOrcFile.testStripeLevelStats.orc", &len);
  CHV_REQUIRE_OK(chv_orc_tail_parse(data, len, "sls", &t, &err), &err);
  struct chv_orc_input in;
  chv_orc_input_memory(&in, data, len, "sls");
  struct chv_orc_metadata *md;
  CHV_REQUIRE_OK(chv_orc_metadata_open(t, &in, &md, &err), &err);
  uint64_t total = 0;
  for (uint32_t i = 0; i < md->nstripes; i++) {
    CHV_CHECK_EQ_INT(md->stripes[i].ncolumns, 3);
    CHV_CHECK_EQ_INT(md->stripes[i].columns[0].number_of_values,
                     t->footer.stripes[i].number_of_rows);
    total += md->stripes[i].columns[0].number_of_values;
  }
  CHV_CHECK_EQ_INT(total, 11000);
  /* Metadata round trip. */
  struct chv_buf b1, b2;
  chv_buf_init(&b1);
  chv_buf_init(&b2);
  CHV_CHECK_OK(chv_orc_metadata_write(md, &b1, &err), &err);
  chv_orc_metadata_close(md);
  chv_orc_tail_close(t);
  free(data);
  chv_buf_free(&b1);
  chv_buf_free(&b2);
}

/* ---- index streams ----------------------------------------------------- */

static void test_indexes(void) {
  static const char *names[] = {
      "over1k_bloom.orc", "TestStringDictionary.testRowIndex.orc",
      "bad_bloom_filter_1.6.11.orc", "TestOrcFile.testSnappy.orc"};
  int blooms = 0, indexes = 0, positioned = 0;
  for (size_t k = 0; k < CHV_ARRAY_SIZE(names); k++) {
    struct chv_error err;
    size_t len;
    char *data = load(names[k], &len);
    struct chv_orc_tail *t;
    CHV_REQUIRE_OK(chv_orc_tail_parse(data, len, names[k], &t, &err), &err);
    struct chv_orc_input in;
    chv_orc_input_memory(&in, data, len, names[k]);
    chv_orc_codec *codec;
    CHV_REQUIRE_OK(chv_orc_tail_codec_open(t, &codec, &err), &err);
    chv_arena *a;
    chv_arena_open(0, &a);
    for (uint32_t s = 0; s < t->footer.nstripes; s++) {
      struct chv_orc_stripe_footer sf;
      CHV_REQUIRE_OK(chv_orc_stripe_footer_read(t, &in, codec, s, a, &sf, &err),
                     &err);
      uint64_t rows = t->footer.stripes[s].number_of_rows;
      uint32_t stride = t->footer.row_index_stride;
      uint64_t groups = (rows + stride - 1) / stride;
      for (uint32_t i = 0; i < sf.nstreams; i++) {
        const struct chv_orc_stream_info *st = &sf.streams[i];
        const uint8_t *p = (const uint8_t *)data + st->offset;
        struct chv_buf b1, b2;
        chv_buf_init(&b1);
        chv_buf_init(&b2);
        if (st->kind == CHV_ORC_STREAM_ROW_INDEX) {
          struct chv_orc_row_index x, y;
          CHV_REQUIRE_OK(chv_orc_row_index_decode(codec, p, st->length, a,
                                                  names[k], &x, &err),
                         &err);
          CHV_CHECK_EQ_INT(x.nentries, groups);
          for (uint32_t e = 0; e < x.nentries; e++) {
            CHV_CHECK(x.entries[e].statistics != NULL);
            /* (Entries of the first row group may list no positions:
            ** testRowIndex's do.) */
            if (st->column > 0 && x.entries[e].npositions > 0) positioned++;
          }
          /* Round trip through the writer. */
          CHV_CHECK_OK(chv_orc_row_index_write(&x, &b1, &err), &err);
          chv_orc_codec *none;
          chv_orc_codec_open(CHV_ORC_COMP_NONE, 1, &none, &err);
          CHV_CHECK_OK(chv_orc_row_index_decode(none, b1.data, b1.len, a, "rt",
                                                &y, &err),
                       &err);
          CHV_CHECK_OK(chv_orc_row_index_write(&y, &b2, &err), &err);
          CHV_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
          chv_orc_codec_close(none);
          indexes++;
        } else if (st->kind == CHV_ORC_STREAM_BLOOM_FILTER ||
                   st->kind == CHV_ORC_STREAM_BLOOM_FILTER_UTF8) {
          struct chv_orc_bloom_index x;
          CHV_REQUIRE_OK(chv_orc_bloom_index_decode(codec, p, st->length, a,
                                                    names[k], &x, &err),
                         &err);
          CHV_CHECK_EQ_INT(x.nfilters, groups);
          for (uint32_t e = 0; e < x.nfilters; e++) {
            const struct chv_orc_bloom_filter *bf = &x.filters[e];
            if (st->kind == CHV_ORC_STREAM_BLOOM_FILTER_UTF8) {
              CHV_CHECK(bf->utf8bitset.len > 0);
              CHV_CHECK(chv_orc_bloom_filter_usable(bf));
            } else {
              /* over1k_bloom's filters come from an early Hive writer:
              ** 10000 in the hash count (its expected entries), one long
              ** of bits.  They decode, and are not to be used. */
              CHV_CHECK(bf->nbitset > 0);
              CHV_CHECK(bf->num_hash_functions == 10000);
              CHV_CHECK(!chv_orc_bloom_filter_usable(bf));
            }
          }
          CHV_CHECK_OK(chv_orc_bloom_index_write(&x, &b1, &err), &err);
          blooms++;
        }
        chv_buf_free(&b1);
        chv_buf_free(&b2);
      }
    }
    chv_arena_close(a);
    chv_orc_codec_close(codec);
    chv_orc_tail_close(t);
    free(data);
  }
  CHV_CHECK(indexes > 20);
  CHV_CHECK(positioned > 20);
  CHV_CHECK(blooms > 10);
}

/* ---- round trips through the writers ----------------------------------- */

/* Rewrite a fixture's tail with `codec` after its content, read it back
** and compare. */
static void rewrite_tail(const char *name, int32_t kind) {
  struct chv_error err;
  size_t len;
  char *data = load(name, &len);
  struct chv_orc_tail *t;
  CHV_REQUIRE_OK(chv_orc_tail_parse(data, len, name, &t, &err), &err);
  struct chv_orc_input in;
  chv_orc_input_memory(&in, data, len, name);
  struct chv_orc_metadata *md = NULL;
  if (chv_orc_metadata_open(t, &in, &md, &err) != CHV_OK) md = NULL;

  chv_orc_codec *codec;
  CHV_REQUIRE_OK(chv_orc_codec_open(kind, 1000, &codec, &err), &err);
  struct chv_buf file;
  chv_buf_init(&file);
  chv_buf_append(&file, data, (size_t)t->content_end);
  CHV_REQUIRE_OK(chv_orc_tail_write(codec, &t->footer, md, 6, &file, &err),
                 &err);
  struct chv_orc_tail *t2;
  CHV_REQUIRE_OK(chv_orc_tail_parse(file.data, file.len, name, &t2, &err),
                 &err);
  CHV_CHECK_EQ_INT(t2->compression, kind);
  CHV_CHECK_EQ_INT(t2->nrows, t->nrows);
  CHV_CHECK_EQ_INT(t2->version, CHV_ORC_V0_12);
  CHV_CHECK(t2->ps.has_magic && t2->ps.writer_version == 6);
  /* The footer serializes to the same bytes. */
  struct chv_buf b1, b2;
  chv_buf_init(&b1);
  chv_buf_init(&b2);
  CHV_CHECK_OK(chv_orc_footer_write(&t->footer, &b1, &err), &err);
  CHV_CHECK_OK(chv_orc_footer_write(&t2->footer, &b2, &err), &err);
  CHV_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
  if (md) {
    struct chv_orc_input in2;
    chv_orc_input_memory(&in2, file.data, file.len, name);
    struct chv_orc_metadata *md2;
    CHV_CHECK_OK(chv_orc_metadata_open(t2, &in2, &md2, &err), &err);
    chv_buf_reset(&b1);
    chv_buf_reset(&b2);
    chv_orc_metadata_write(md, &b1, &err);
    chv_orc_metadata_write(md2, &b2, &err);
    CHV_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
    chv_orc_metadata_close(md2);
    /* Stripe footers are read from the untouched content (compressed as
    ** the original tail says). */
    if (kind == t->compression)
      CHV_CHECK_OK(walk_stripes(t2, &in2, &err), &err);
  }
  chv_buf_free(&b1);
  chv_buf_free(&b2);
  chv_orc_tail_close(t2);
  chv_buf_free(&file);
  chv_orc_codec_close(codec);
  chv_orc_metadata_close(md);
  chv_orc_tail_close(t);
  free(data);
}

static void test_rewrite_tails(void) {
  static const int32_t kinds[] = {CHV_ORC_COMP_NONE,   CHV_ORC_COMP_ZLIB,
                                  CHV_ORC_COMP_SNAPPY, CHV_ORC_COMP_LZO,
                                  CHV_ORC_COMP_LZ4,    CHV_ORC_COMP_ZSTD,
                                  CHV_ORC_COMP_BROTLI};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(kinds); k++) {
    rewrite_tail("TestOrcFile.test1.orc", kinds[k]);
    rewrite_tail("TestOrcFile.metaData.orc", kinds[k]);
    rewrite_tail("over1k_bloom.orc", kinds[k]);
    rewrite_tail("complextypes_iceberg.orc", kinds[k]);
  }
  rewrite_tail("demo-11-zlib.orc", CHV_ORC_COMP_ZSTD);
  rewrite_tail("TestOrcFile.testUnionAndTimestamp.orc", CHV_ORC_COMP_ZLIB);
}

static void test_postscript_round_trip(void) {
  struct chv_orc_postscript ps, ps2;
  memset(&ps, 0, sizeof ps);
  ps.footer_length = 300;
  ps.has_compression = true;
  ps.compression = CHV_ORC_COMP_ZSTD;
  ps.has_compression_block_size = true;
  ps.compression_block_size = 65536;
  ps.nversion = 2;
  ps.version[0] = 0;
  ps.version[1] = 12;
  ps.metadata_length = 77;
  ps.has_writer_version = true;
  ps.writer_version = 9;
  ps.stripe_statistics_length = 5;
  ps.has_magic = true;
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_error err;
  CHV_REQUIRE_OK(chv_orc_postscript_write(&ps, &b, &err), &err);
  CHV_REQUIRE_OK(chv_orc_postscript_decode(b.data, b.len, "ps", &ps2, &err),
                 &err);
  CHV_CHECK(memcmp(&ps, &ps2, sizeof ps) == 0);
  /* A wrong magic. */
  chv_buf_reset(&b);
  ps.has_magic = false;
  chv_orc_postscript_write(&ps, &b, &err);
  chv_buf_append(&b, "\x82\xf4\x03\x03ORK", 7);
  CHV_CHECK_EQ_INT(chv_orc_postscript_decode(b.data, b.len, "ps", &ps2, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "ps: not an ORC file");
  chv_buf_free(&b);
}

/* ---- damaged tails ----------------------------------------------------- */

static void test_truncations_and_flips(void) {
  static const char *names[] = {"TestOrcFile.test1.orc", "orc_no_format.orc",
                                "TestOrcFile.testTimestamp.orc"};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(names); k++) {
    size_t len;
    char *data = load(names[k], &len);
    /* Every prefix, in a buffer of exactly its size. */
    for (size_t n = 0; n < len; n++) {
      char *p = malloc(n ? n : 1);
      memcpy(p, data, n);
      struct chv_error err;
      struct chv_orc_tail *t = NULL;
      int rc = chv_orc_tail_parse(p, n, names[k], &t, &err);
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT || rc == CHV_ENOTSUP);
      if (rc == CHV_OK) CHV_CHECK(n == 0); /* only the empty file */
      chv_orc_tail_close(t);
      free(p);
    }
    /* Each byte of the tail flipped. */
    size_t from = len > 400 ? len - 400 : 0;
    for (size_t i = from; i < len; i++) {
      for (int bit = 0; bit < 8; bit += 3) {
        data[i] ^= (char)(1 << bit);
        struct chv_error err;
        struct chv_orc_tail *t = NULL;
        int rc = chv_orc_tail_parse(data, len, names[k], &t, &err);
        if (!(rc == CHV_OK || rc == CHV_ECORRUPT || rc == CHV_ENOTSUP))
          fprintf(stderr, "flip %zu/%d: %d %s\n", i, bit, rc, err.msg);
        CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT || rc == CHV_ENOTSUP);
        if (rc == CHV_OK) {
          struct chv_type *h;
          if (chv_orc_hive_schema(t, &h, &err) == CHV_OK) chv_type_free(h);
          struct chv_orc_input in;
          chv_orc_input_memory(&in, data, len, names[k]);
          struct chv_orc_metadata *md;
          if (chv_orc_metadata_open(t, &in, &md, &err) == CHV_OK)
            chv_orc_metadata_close(md);
          walk_stripes(t, &in, &err);
        }
        chv_orc_tail_close(t);
        data[i] ^= (char)(1 << bit);
      }
    }
    free(data);
  }
}

/* A file of `content` bytes ("ORC" and zeros) ending with footer f and a
** PostScript from ps (its lengths filled in), without compression. */
static void build(const struct chv_orc_footer *f,
                  const struct chv_orc_postscript *ps_in, size_t content,
                  struct chv_buf *out) {
  struct chv_error err;
  chv_buf_reset(out);
  chv_buf_append(out, "ORC", 3);
  for (size_t i = 3; i < content; i++)
    chv_buf_putc(out, 0);
  size_t at = out->len;
  chv_orc_footer_write(f, out, &err);
  struct chv_orc_postscript ps = *ps_in;
  ps.footer_length = out->len - at;
  at = out->len;
  chv_orc_postscript_write(&ps, out, &err);
  chv_buf_putc(out, (char)(out->len - at));
}

static int parse_built(const struct chv_buf *b, struct chv_error *err) {
  struct chv_orc_tail *t = NULL;
  int rc = chv_orc_tail_parse(b->data, b->len, "x.orc", &t, err);
  chv_orc_tail_close(t);
  return rc;
}

static void test_hand_built_faults(void) {
  uint32_t sub0[] = {1, 2}, sub_bad[] = {2, 1}, sub_self[] = {0};
  const char *names2[] = {"a", "b"};
  struct chv_orc_type types[3];
  memset(types, 0, sizeof types);
  types[0].kind = CHV_ORC_KIND_STRUCT;
  types[0].nsubtypes = 2;
  types[0].subtypes = sub0;
  types[0].nfield_names = 2;
  types[0].field_names = names2;
  types[1].kind = CHV_ORC_KIND_INT;
  types[2].kind = CHV_ORC_KIND_STRING;
  struct chv_orc_stripe_info stripes[2];
  memset(stripes, 0, sizeof stripes);
  stripes[0].offset = 3;
  stripes[0].data_length = 10;
  stripes[0].footer_length = 5;
  stripes[0].number_of_rows = 7;
  stripes[1] = stripes[0];
  stripes[1].offset = 18;
  struct chv_orc_footer f;
  memset(&f, 0, sizeof f);
  f.ntypes = 3;
  f.types = types;
  f.nstripes = 2;
  f.stripes = stripes;
  f.has_number_of_rows = true;
  f.number_of_rows = 14;
  struct chv_orc_postscript ps;
  memset(&ps, 0, sizeof ps);
  ps.nversion = 2;
  ps.version[1] = 12;
  ps.has_magic = true;
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_error err;

  build(&f, &ps, 40, &b);
  CHV_CHECK_OK(parse_built(&b, &err), &err);

  /* Stripes. */
  stripes[1].offset = 10;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "x.orc: stripe 1 at offset 10 overlaps the "
                              "stripe before it ending at 18");
  stripes[1].offset = 30;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "runs past the stripes' end at 40");
  stripes[1].offset = 18;
  stripes[0].offset = 1;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "overlaps the header");
  stripes[0].offset = 3;
  stripes[0].index_length = UINT64_MAX;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  stripes[0].index_length = 0;
  f.number_of_rows = 15;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "the footer says 15 rows, its stripes hold 14");
  f.number_of_rows = 14;

  /* Types. */
  types[0].subtypes = sub_bad;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "type 0 (struct): subtype 2 is not the next "
                              "id (1)");
  types[0].subtypes = sub0;
  types[1].kind = CHV_ORC_KIND_LIST;
  types[1].nsubtypes = 1;
  types[1].subtypes = sub_self;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "type 1 (array): subtype 0 does not come after "
                              "it");
  types[1].kind = CHV_ORC_KIND_INT;
  types[1].nsubtypes = 0;
  types[0].nfield_names = 1;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "has 2 subtypes and 1 field names");
  types[0].nfield_names = 2;
  types[0].nsubtypes = 1;
  types[0].nfield_names = 1;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "types 2 .. 2 are not in the type tree");
  types[0].nsubtypes = 2;
  types[0].nfield_names = 2;
  types[2].kind = 77;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "type 2 has the unknown kind 77");
  types[2].kind = CHV_ORC_KIND_STRING;
  f.ntypes = 0;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "the footer has no types");
  f.ntypes = 3;

  /* A chain of 70 lists: deeper than 64. */
  struct chv_orc_type deep[71];
  uint32_t next[71];
  memset(deep, 0, sizeof deep);
  for (uint32_t i = 0; i < 71; i++) {
    deep[i].kind = i < 70 ? CHV_ORC_KIND_LIST : CHV_ORC_KIND_INT;
    next[i] = i + 1;
    deep[i].nsubtypes = i < 70;
    deep[i].subtypes = &next[i];
  }
  struct chv_orc_footer fd = f;
  fd.types = deep;
  fd.ntypes = 71;
  build(&fd, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "types nest deeper than 64");

  /* PostScript. */
  ps.version[0] = 2;
  ps.version[1] = 0;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "future ORC version 2.0");
  ps.version[0] = 0;
  ps.version[1] = 12;
  ps.has_compression = true;
  ps.compression = 9;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "unknown compression kind 9");
  ps.compression = CHV_ORC_COMP_ZLIB;
  ps.has_compression_block_size = true;
  ps.compression_block_size = 0;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "compression block size 0");
  ps.compression_block_size = (uint64_t)1 << 40;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ENOTSUP);
  ps.has_compression = false;
  ps.has_compression_block_size = false;
  ps.metadata_length = 1000;
  build(&f, &ps, 40, &b);
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "metadata length 1000 exceeds the");
  ps.metadata_length = 0;
  /* No magic anywhere. */
  ps.has_magic = false;
  build(&f, &ps, 40, &b);
  b.data[0] = 'X';
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "x.orc: not an ORC file: no \"ORC\" magic");
  ps.has_magic = true;
  /* A PostScript length of 0, and one past the file. */
  build(&f, &ps, 40, &b);
  b.data[b.len - 1] = 0;
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "PostScript length 0");
  static const char tiny[] = {'O', 'R', 'C', 9};
  struct chv_orc_tail *t;
  CHV_CHECK_EQ_INT(chv_orc_tail_parse(tiny, 4, "x.orc", &t, &err),
                   CHV_ECORRUPT);
  /* Encryption: refused. */
  struct chv_buf enc;
  chv_buf_init(&enc);
  chv_orc_footer_write(&f, &enc, &err);
  chv_buf_append(&enc, "\x52\x00", 2); /* field 10, empty Encryption */
  chv_buf_reset(&b);
  chv_buf_append(&b, "ORC", 3);
  for (int i = 3; i < 40; i++)
    chv_buf_putc(&b, 0);
  chv_buf_append(&b, enc.data, enc.len);
  struct chv_orc_postscript pe = ps;
  pe.footer_length = enc.len;
  size_t at = b.len;
  chv_orc_postscript_write(&pe, &b, &err);
  chv_buf_putc(&b, (char)(b.len - at));
  CHV_CHECK_EQ_INT(parse_built(&b, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "column encryption is not supported");
  chv_buf_free(&enc);
  chv_buf_free(&b);
}

/* A stripe footer whose streams do not fill the stripe, and one naming a
** column that does not exist. */
static void test_stripe_footer_faults(void) {
  struct chv_error err;
  struct chv_orc_tail *t;
  size_t len;
  char *data = load("TestOrcFile.testMemoryManagementV12.orc", &len);
  CHV_REQUIRE_OK(chv_orc_tail_parse(data, len, "mm.orc", &t, &err), &err);
  chv_orc_codec *none;
  chv_orc_codec_open(CHV_ORC_COMP_NONE, 1, &none, &err);
  chv_arena *a;
  chv_arena_open(0, &a);
  struct chv_orc_input in;
  chv_orc_input_memory(&in, data, len, "mm.orc");
  struct chv_orc_stripe_footer sf, sf2;
  CHV_REQUIRE_OK(chv_orc_stripe_footer_read(t, &in, none, 0, a, &sf, &err),
                 &err);
  struct chv_buf b;
  chv_buf_init(&b);
  sf.streams[0].length++;
  chv_orc_stripe_footer_write(&sf, &b, &err);
  CHV_CHECK_EQ_INT(
      chv_orc_stripe_footer_decode(t, none, 0, b.data, b.len, a, &sf2, &err),
      CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "mm.orc: stripe 0 footer:");
  sf.streams[0].length--;
  sf.streams[0].column = 3;
  chv_buf_reset(&b);
  chv_orc_stripe_footer_write(&sf, &b, &err);
  CHV_CHECK_EQ_INT(
      chv_orc_stripe_footer_decode(t, none, 0, b.data, b.len, a, &sf2, &err),
      CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "names column 3 of 3");
  sf.streams[0].column = 0;
  sf.ncolumns = 2;
  chv_buf_reset(&b);
  chv_orc_stripe_footer_write(&sf, &b, &err);
  CHV_CHECK_EQ_INT(
      chv_orc_stripe_footer_decode(t, none, 0, b.data, b.len, a, &sf2, &err),
      CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "2 column encodings for 3 columns");
  CHV_CHECK_EQ_INT(
      chv_orc_stripe_footer_decode(t, none, 9, b.data, b.len, a, &sf2, &err),
      CHV_EINVAL);
  chv_buf_free(&b);
  chv_arena_close(a);
  chv_orc_codec_close(none);
  chv_orc_tail_close(t);
  free(data);
}

/* ---- the Hive mapping -------------------------------------------------- */

/* A tail around a hand-made type list (checked), for the mapping. */
static char *hive_of(struct chv_orc_type *types, uint32_t n, int *rc) {
  struct chv_orc_tail t;
  memset(&t, 0, sizeof t);
  t.path = "m.orc";
  t.footer.types = types;
  t.footer.ntypes = n;
  static struct chv_error err;
  *rc = chv_orc_types_check(&t.footer, "m.orc", &err);
  if (*rc != CHV_OK) return chv_strdup(err.msg);
  struct chv_type *h;
  *rc = chv_orc_hive_schema(&t, &h, &err);
  if (*rc != CHV_OK) return chv_strdup(err.msg);
  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(h, &b);
  chv_type_free(h);
  return chv_buf_detach(&b);
}

static void test_hive_mapping(void) {
  /* struct<a..s:...> with one field of every primitive kind. */
  static const int32_t kinds[] = {CHV_ORC_KIND_BOOLEAN,
                                  CHV_ORC_KIND_BYTE,
                                  CHV_ORC_KIND_SHORT,
                                  CHV_ORC_KIND_INT,
                                  CHV_ORC_KIND_LONG,
                                  CHV_ORC_KIND_FLOAT,
                                  CHV_ORC_KIND_DOUBLE,
                                  CHV_ORC_KIND_STRING,
                                  CHV_ORC_KIND_BINARY,
                                  CHV_ORC_KIND_TIMESTAMP,
                                  CHV_ORC_KIND_DECIMAL,
                                  CHV_ORC_KIND_DATE,
                                  CHV_ORC_KIND_VARCHAR,
                                  CHV_ORC_KIND_CHAR,
                                  CHV_ORC_KIND_TIMESTAMP_INSTANT,
                                  CHV_ORC_KIND_GEOMETRY,
                                  CHV_ORC_KIND_GEOGRAPHY,
                                  CHV_ORC_KIND_DECIMAL,
                                  CHV_ORC_KIND_CHAR,
                                  CHV_ORC_KIND_VARCHAR};
  enum { N = CHV_ARRAY_SIZE(kinds) };
  struct chv_orc_type t[N + 1];
  uint32_t subs[N];
  const char *names[N];
  static const char *const nm[] = {"a", "b", "c", "d", "e", "f", "g",
                                   "h", "i", "j", "k", "l", "m", "n",
                                   "o", "p", "q", "r", "s", "u"};
  memset(t, 0, sizeof t);
  t[0].kind = CHV_ORC_KIND_STRUCT;
  t[0].nsubtypes = t[0].nfield_names = N;
  t[0].subtypes = subs;
  t[0].field_names = names;
  for (uint32_t i = 0; i < N; i++) {
    subs[i] = i + 1;
    names[i] = nm[i];
    t[i + 1].kind = kinds[i];
  }
  t[11].has_precision = t[11].has_scale = true; /* k: decimal(12,3) */
  t[11].precision = 12;
  t[11].scale = 3;
  t[13].has_maximum_length = true; /* m: varchar(40) */
  t[13].maximum_length = 40;
  t[14].has_maximum_length = true; /* n: char(7) */
  t[14].maximum_length = 7;
  /* r: a decimal without precision or scale (Hive 0.11); s: char(300),
  ** beyond Hive; u: varchar without a length. */
  t[19].has_maximum_length = true;
  t[19].maximum_length = 300;
  int rc;
  char *s = hive_of(t, N + 1, &rc);
  CHV_CHECK_EQ_INT(rc, CHV_OK);
  CHV_CHECK_STREQ(s, "struct<a:boolean,b:tinyint,c:smallint,d:int,e:bigint,"
                     "f:float,g:double,h:string,i:binary,j:timestamp,k:"
                     "decimal(12,3),l:date,m:varchar(40),n:char(7),o:"
                     "timestamp,p:binary,q:binary,r:decimal(38,18),s:string,"
                     "u:string>");
  chv_free(s);

  /* Nested: map<string,array<uniontype<int,struct<x:double>>>>, as the
  ** root (not a struct): one field _col0. */
  uint32_t s0[] = {1, 2}, s2[] = {3}, s3[] = {4, 5}, s5[] = {6};
  const char *xn[] = {"x"};
  struct chv_orc_type m[7];
  memset(m, 0, sizeof m);
  m[0].kind = CHV_ORC_KIND_MAP;
  m[0].nsubtypes = 2;
  m[0].subtypes = s0;
  m[1].kind = CHV_ORC_KIND_STRING;
  m[2].kind = CHV_ORC_KIND_LIST;
  m[2].nsubtypes = 1;
  m[2].subtypes = s2;
  m[3].kind = CHV_ORC_KIND_UNION;
  m[3].nsubtypes = 2;
  m[3].subtypes = s3;
  m[4].kind = CHV_ORC_KIND_INT;
  m[5].kind = CHV_ORC_KIND_STRUCT;
  m[5].nsubtypes = m[5].nfield_names = 1;
  m[5].subtypes = s5;
  m[5].field_names = xn;
  m[6].kind = CHV_ORC_KIND_DOUBLE;
  s = hive_of(m, 7, &rc);
  CHV_CHECK_EQ_INT(rc, CHV_OK);
  CHV_CHECK_STREQ(s, "struct<_col0:map<string,array<struct<tag:tinyint,"
                     "field0:int,field1:struct<x:double>>>>>");
  chv_free(s);
  struct chv_orc_footer ff;
  memset(&ff, 0, sizeof ff);
  ff.types = m;
  ff.ntypes = 7;
  struct chv_buf b;
  chv_buf_init(&b);
  chv_orc_type_format(&ff, 0, &b);
  CHV_CHECK_STREQ(b.data, "map<string,array<uniontype<int,struct<x:double>>>>");
  chv_buf_free(&b);

  /* A map key that is not primitive: Hive cannot hold it. */
  m[1].kind = CHV_ORC_KIND_LIST;
  m[1].nsubtypes = 1;
  uint32_t s1[] = {2};
  m[1].subtypes = s1;
  /* (now 1 -> 2 is its element; the map's value must then be 3..) */
  uint32_t s0b[] = {1, 3};
  m[0].subtypes = s0b;
  m[2].kind = CHV_ORC_KIND_INT;
  m[2].nsubtypes = 0;
  m[3].kind = CHV_ORC_KIND_LIST;
  m[3].nsubtypes = 1;
  uint32_t s3b[] = {4};
  m[3].subtypes = s3b;
  m[4].kind = CHV_ORC_KIND_INT;
  s = hive_of(m, 5, &rc);
  CHV_CHECK_EQ_INT(rc, CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(s, "m.orc: type 0: a map key of type array");
  chv_free(s);

  /* Decimals over 38 digits; scale over precision. */
  struct chv_orc_type d[1];
  memset(d, 0, sizeof d);
  d[0].kind = CHV_ORC_KIND_DECIMAL;
  d[0].has_precision = d[0].has_scale = true;
  d[0].precision = 39;
  s = hive_of(d, 1, &rc);
  CHV_CHECK_EQ_INT(rc, CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(s, "more than Hive's 38 digits");
  chv_free(s);
  d[0].precision = 5;
  d[0].scale = 6;
  s = hive_of(d, 1, &rc);
  CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
  chv_free(s);

  /* Field names equal but for case. */
  const char *dup[] = {"Ab", "aB"};
  uint32_t ds[] = {1, 2};
  struct chv_orc_type u[3];
  memset(u, 0, sizeof u);
  u[0].kind = CHV_ORC_KIND_STRUCT;
  u[0].nsubtypes = u[0].nfield_names = 2;
  u[0].subtypes = ds;
  u[0].field_names = dup;
  u[1].kind = u[2].kind = CHV_ORC_KIND_INT;
  s = hive_of(u, 3, &rc);
  CHV_CHECK_EQ_INT(rc, CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(s, "field name 'aB' repeats");
  chv_free(s);
}

CHV_TEST_MAIN("orc_meta", test_fixture_tails, test_edge_fixtures,
              test_statistics, test_indexes, test_rewrite_tails,
              test_postscript_round_trip, test_truncations_and_flips,
              test_hand_built_faults, test_stripe_footer_faults,
              test_hive_mapping)
