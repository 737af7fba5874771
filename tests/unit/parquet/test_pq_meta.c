/* Tests of the Parquet footer model (src/format/parquet/pq_meta.c) and the
** schema mapping (pq_schema.c): every footer of the parquet-testing
** fixtures parses (rows, row groups, columns as the fixtures' README gives
** them) and maps to the Hive types DuckDB shows; every malformed fixture
** parses or fails cleanly; every page header of every column chunk is
** walked; page indexes decode; footers, page headers and page indexes
** round-trip through the writers; truncated and bit-flipped footers fail
** cleanly; validation and mapping errors name the file and column. */
#include "chv_test.h"
#include "format/parquet/pq_int.h"

#include "codec/thrift.h"

#include "chive/fs.h"

#include <dirent.h>
#include <inttypes.h>

/* ---- helpers ----------------------------------------------------------- */

static const char *fixture_dir(void) {
  static char dir[600];
  snprintf(dir, sizeof dir, "%s/parquet", chv_test_fixtures());
  return dir;
}

static char *load(const char *path, size_t *len) {
  char *data = NULL;
  struct chv_error err;
  if (chv_fs_read_all(chv_fs_local(), path, &data, len, -1, &err) != CHV_OK) {
    fprintf(stderr, "cannot read %s: %s\n", path, err.msg);
    return NULL;
  }
  return data;
}

static char *fixture_path(const char *name) {
  static char p[1024];
  size_t n = strlen(fixture_dir());
  if (n + strlen(name) + 2 > sizeof p) return "/nonexistent";
  memcpy(p, fixture_dir(), n);
  p[n] = '/';
  strcpy(p + n + 1, name);
  return p;
}

/* Footer of a fixture, read through the file system. */
static int open_fixture(const char *name, struct chv_pq_file_meta **m,
                        struct chv_error *err) {
  struct chv_file *f;
  const char *path = fixture_path(name);
  CHV_RETURN_IF_ERR(chv_fs_open(chv_fs_local(), path, &f, err));
  int rc = chv_pq_footer_read(f, -1, name, m, err);
  chv_file_close(f);
  return rc;
}

static char *hive_string(const struct chv_pq_file_meta *m, const char *name,
                         struct chv_error *err) {
  struct chv_pq_hive_schema *h;
  if (chv_pq_hive_schema_open(m, name, &h, err) != CHV_OK) return NULL;
  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(h->type, &b);
  chv_pq_hive_schema_close(h);
  return chv_buf_detach(&b);
}

/* Sorted names of the .parquet files in a folder. */
static int list_parquet(const char *dir, char names[][128], int max) {
  DIR *d = opendir(dir);
  if (d == NULL) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < max) {
    size_t l = strlen(e->d_name);
    if (l > 8 && strcmp(e->d_name + l - 8, ".parquet") == 0)
      snprintf(names[n++], 128, "%s", e->d_name);
  }
  closedir(d);
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char t[128];
      memcpy(t, names[j], 128);
      memcpy(names[j], names[j - 1], 128);
      memcpy(names[j - 1], t, 128);
    }
  return n;
}

/* ---- every fixture footer ---------------------------------------------- */

/* From the fixtures' README: rows (summed over row groups), row groups and
** top-level columns (map_no_value: its 4 leaf columns, as DuckDB could not
** open it and the README lists leaves). */
static const struct fixture {
  const char *name;
  int64_t rows;
  int row_groups;
  int columns;
} fixtures[] = {
    {"alltypes_dictionary.parquet", 2, 1, 11},
    {"alltypes_plain.parquet", 8, 1, 11},
    {"alltypes_plain.snappy.parquet", 2, 1, 11},
    {"alltypes_tiny_pages.parquet", 7300, 1, 13},
    {"alltypes_tiny_pages_plain.parquet", 7300, 1, 13},
    {"binary.parquet", 12, 1, 1},
    {"byte_array_decimal.parquet", 24, 1, 1},
    {"byte_stream_split.zstd.parquet", 300, 1, 2},
    {"byte_stream_split_extended.gzip.parquet", 200, 1, 14},
    {"column_chunk_key_value_metadata.parquet", 0, 1, 2},
    {"concatenated_gzip_members.parquet", 513, 1, 1},
    {"data_index_bloom_encoding_stats.parquet", 14, 1, 1},
    {"datapage_v1-corrupt-checksum.parquet", 5120, 1, 2},
    {"datapage_v1-snappy-compressed-checksum.parquet", 5120, 1, 2},
    {"datapage_v1-uncompressed-checksum.parquet", 5120, 1, 2},
    {"datapage_v2.snappy.parquet", 5, 1, 5},
    {"datapage_v2_empty_datapage.snappy.parquet", 1, 1, 1},
    {"delta_binary_packed.parquet", 200, 1, 66},
    {"delta_byte_array.parquet", 1000, 1, 9},
    {"delta_encoding_optional_column.parquet", 100, 1, 17},
    {"delta_encoding_required_column.parquet", 100, 1, 17},
    {"delta_length_byte_array.parquet", 1000, 1, 1},
    {"dict-page-offset-zero.parquet", 39, 1, 1},
    {"fixed_length_byte_array.parquet", 1000, 1, 1},
    {"fixed_length_decimal.parquet", 24, 1, 1},
    {"fixed_length_decimal_legacy.parquet", 24, 1, 1},
    {"float16_nonzeros_and_nans.parquet", 8, 1, 1},
    {"hadoop_lz4_compressed.parquet", 4, 1, 3},
    {"hadoop_lz4_compressed_larger.parquet", 10000, 1, 1},
    {"incorrect_map_schema.parquet", 1, 1, 1},
    {"int32_decimal.parquet", 24, 1, 1},
    {"int32_with_null_pages.parquet", 1000, 1, 1},
    {"int64_decimal.parquet", 24, 1, 1},
    {"int96_from_spark.parquet", 6, 1, 1},
    {"large_string_map.brotli.parquet", 2, 1, 1},
    {"list_columns.parquet", 3, 1, 2},
    {"lz4_raw_compressed.parquet", 4, 1, 3},
    {"lz4_raw_compressed_larger.parquet", 10000, 1, 1},
    {"map_no_value.parquet", 3, 1, -4},
    {"nan_in_stats.parquet", 2, 1, 1},
    {"nation.dict-malformed.parquet", 25, 1, 4},
    {"nested_lists.snappy.parquet", 3, 1, 2},
    {"nested_maps.snappy.parquet", 6, 1, 3},
    {"nested_structs.rust.parquet", 1, 1, 36},
    {"non_hadoop_lz4_compressed.parquet", 4, 1, 3},
    {"nonnullable.impala.parquet", 1, 1, 6},
    {"null_list.parquet", 1, 1, 1},
    {"nullable.impala.parquet", 7, 1, 6},
    {"nulls.snappy.parquet", 8, 1, 1},
    {"old_list_structure.parquet", 1, 1, 1},
    {"overflow_i16_page_cnt.parquet", 40000, 1, 1},
    {"page_v2_empty_compressed.parquet", 10, 1, 1},
    {"plain-dict-uncompressed-checksum.parquet", 1000, 1, 2},
    {"repeated_no_annotation.parquet", 6, 1, 2},
    {"repeated_primitive_no_list.parquet", 4, 1, 3},
    {"rle-dict-snappy-checksum.parquet", 1000, 1, 2},
    {"rle-dict-uncompressed-corrupt-checksum.parquet", 1000, 1, 2},
    {"rle_boolean_encoding.parquet", 68, 1, 1},
    {"sort_columns.parquet", 6, 2, 2},
    {"unknown-logical-type.parquet", 3, 1, 2},
};

static const struct fixture *fixture_find(const char *name) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(fixtures); i++)
    if (strcmp(fixtures[i].name, name) == 0) return &fixtures[i];
  return NULL;
}

static void test_every_footer(void) {
  static char names[256][128];
  int n = list_parquet(fixture_dir(), names, 256);
  CHV_REQUIRE(n > 0);
  CHV_CHECK_EQ_INT(n, (int)CHV_ARRAY_SIZE(fixtures));
  for (int i = 0; i < n; i++) {
    const struct fixture *fx = fixture_find(names[i]);
    if (fx == NULL) {
      fprintf(stderr, "%s: not in the expectations table\n", names[i]);
      chv_test_failed_ = 1;
      continue;
    }
    struct chv_error err;
    struct chv_pq_file_meta *m;
    if (open_fixture(names[i], &m, &err) != CHV_OK) {
      fprintf(stderr, "%s: %s\n", names[i], err.msg);
      chv_test_failed_ = 1;
      continue;
    }
    int64_t rows = 0;
    for (int g = 0; g < m->nrow_groups; g++)
      rows += m->row_groups[g].num_rows;
    if (rows != fx->rows || m->nrow_groups != fx->row_groups ||
        (fx->columns > 0 ? m->root->nchildren : -m->nleaves) != fx->columns) {
      fprintf(stderr, "%s: %" PRId64 " rows, %d groups, %d/%d columns\n",
              names[i], rows, m->nrow_groups, m->root->nchildren, m->nleaves);
      chv_test_failed_ = 1;
    }
    /* The in-memory parser agrees. */
    size_t len;
    char *data = load(fixture_path(names[i]), &len);
    struct chv_pq_file_meta *m2;
    if (data && chv_pq_footer_parse(data, len, names[i], &m2, &err) == CHV_OK) {
      CHV_CHECK_EQ_INT(m2->nrow_groups, m->nrow_groups);
      CHV_CHECK_EQ_INT(m2->nschema, m->nschema);
      CHV_CHECK_EQ_INT(m2->footer_offset, m->footer_offset);
      chv_pq_file_meta_close(m2);
    } else {
      fprintf(stderr, "%s (memory): %s\n", names[i], err.msg);
      chv_test_failed_ = 1;
    }
    chv_free(data);
    /* Every schema maps to Hive types, map_no_value included. */
    char *s = hive_string(m, names[i], &err);
    if (s == NULL) {
      fprintf(stderr, "%s: %s\n", names[i], err.msg);
      chv_test_failed_ = 1;
    }
    chv_free(s);
    chv_pq_file_meta_close(m);
  }
}

/* The Hive types of representative fixtures, DuckDB's DESCRIBE written in
** Hive's names (VARCHAR string, BLOB binary, UBIGINT decimal(20,0),
** USMALLINT int). */
static void test_hive_types(void) {
  static const struct {
    const char *file;
    const char *type;
  } cases[] = {
      {"nullable.impala.parquet",
       "struct<id:bigint,int_array:array<int>,int_array_Array:array<array<int>"
       ">,int_map:map<string,int>,int_Map_Array:array<map<string,int>>,"
       "nested_struct:struct<A:int,b:array<int>,C:struct<d:array<array<"
       "struct<E:int,F:string>>>>,g:map<string,struct<H:struct<i:array<"
       "double>>>>>>"},
      {"nonnullable.impala.parquet",
       "struct<ID:bigint,Int_Array:array<int>,int_array_array:array<array<int>"
       ">,Int_Map:map<string,int>,int_map_array:array<map<string,int>>,"
       "nested_Struct:struct<a:int,B:array<int>,c:struct<D:array<array<"
       "struct<e:int,f:string>>>>,G:map<string,struct<h:struct<i:array<"
       "double>>>>>>"},
      {"nested_maps.snappy.parquet",
       "struct<a:map<string,map<int,boolean>>,b:int,c:double>"},
      {"nested_lists.snappy.parquet",
       "struct<a:array<array<array<string>>>,b:int>"},
      {"old_list_structure.parquet", "struct<a:array<array<int>>>"},
      {"repeated_no_annotation.parquet",
       "struct<id:int,phoneNumbers:struct<phone:array<struct<number:bigint,"
       "kind:string>>>>"},
      {"repeated_primitive_no_list.parquet",
       "struct<Int32_list:array<int>,String_list:array<string>,group_of_"
       "lists:struct<Int32_list_in_group:array<int>,String_list_in_group:"
       "array<string>>>"},
      {"map_no_value.parquet",
       "struct<my_map:map<int,int>,my_map_no_v:array<int>,my_list:array<int>"
       ">"},
      {"incorrect_map_schema.parquet", "struct<my_map:map<string,string>>"},
      {"float16_nonzeros_and_nans.parquet", "struct<x:float>"},
      {"int96_from_spark.parquet", "struct<a:timestamp>"},
      {"byte_array_decimal.parquet", "struct<value:decimal(4,2)>"},
      {"fixed_length_decimal.parquet", "struct<value:decimal(25,2)>"},
      {"fixed_length_decimal_legacy.parquet", "struct<value:decimal(13,2)>"},
      {"int32_decimal.parquet", "struct<value:decimal(4,2)>"},
      {"int64_decimal.parquet", "struct<value:decimal(10,2)>"},
      {"list_columns.parquet",
       "struct<int64_list:array<bigint>,utf8_list:array<string>>"},
      {"null_list.parquet", "struct<emptylist:array<int>>"},
      {"nulls.snappy.parquet", "struct<b_struct:struct<b_c_int:int>>"},
      {"datapage_v2.snappy.parquet",
       "struct<a:string,b:int,c:double,d:boolean,e:array<int>>"},
      {"concatenated_gzip_members.parquet", "struct<long_col:decimal(20,0)>"},
      {"alltypes_tiny_pages.parquet",
       "struct<id:int,bool_col:boolean,tinyint_col:tinyint,smallint_col:"
       "smallint,int_col:int,bigint_col:bigint,float_col:float,double_col:"
       "double,date_string_col:string,string_col:string,timestamp_col:"
       "timestamp,year:int,month:int>"},
      {"alltypes_plain.parquet",
       "struct<id:int,bool_col:boolean,tinyint_col:int,smallint_col:int,"
       "int_col:int,bigint_col:bigint,float_col:float,double_col:double,"
       "date_string_col:binary,string_col:binary,timestamp_col:timestamp>"},
      {"byte_stream_split_extended.gzip.parquet",
       "struct<float16_plain:float,float16_byte_stream_split:float,"
       "float_plain:float,float_byte_stream_split:float,double_plain:double,"
       "double_byte_stream_split:double,int32_plain:int,"
       "int32_byte_stream_split:int,int64_plain:bigint,"
       "int64_byte_stream_split:bigint,flba5_plain:binary,"
       "flba5_byte_stream_split:binary,decimal_plain:decimal(7,3),"
       "decimal_byte_stream_split:decimal(7,3)>"},
      {"bad_data/ARROW-RS-GH-6229-LEVELS.parquet",
       "struct<outer:array<struct<c:int>>>"},
      {"bad_data/ARROW-GH-43605.parquet", "struct<min_fl:int>"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    struct chv_error err;
    struct chv_pq_file_meta *m;
    if (open_fixture(cases[i].file, &m, &err) != CHV_OK) {
      fprintf(stderr, "%s: %s\n", cases[i].file, err.msg);
      chv_test_failed_ = 1;
      continue;
    }
    char *s = hive_string(m, cases[i].file, &err);
    if (s == NULL) fprintf(stderr, "%s: %s\n", cases[i].file, err.msg);
    CHV_CHECK_STREQ(s, cases[i].type);
    chv_free(s);
    chv_pq_file_meta_close(m);
  }
  /* Names DuckDB shows with spaces. */
  struct chv_error err;
  struct chv_pq_file_meta *m;
  CHV_REQUIRE_OK(open_fixture("unknown-logical-type.parquet", &m, &err), &err);
  struct chv_pq_hive_schema *h;
  CHV_REQUIRE_OK(chv_pq_hive_schema_open(m, "u", &h, &err), &err);
  CHV_CHECK_EQ_INT(h->type->nchildren, 2);
  CHV_CHECK_STREQ(h->type->names[0], "column with known type");
  CHV_CHECK_EQ_INT(h->type->children[0]->id, CHV_TYPE_STRING);
  CHV_CHECK_STREQ(h->type->names[1], "column with unknown type");
  CHV_CHECK_EQ_INT(h->type->children[1]->id, CHV_TYPE_BINARY);
  /* The unknown LogicalType member is kept, not an error. */
  CHV_CHECK_EQ_INT(m->leaves[1]->el->logical.kind, CHV_PQ_LT_FUTURE);
  CHV_CHECK(m->leaves[1]->el->logical.future_id > 19);
  chv_pq_hive_schema_close(h);
  chv_pq_file_meta_close(m);
}

/* Field trees and levels of nested fixtures. */
static void test_field_levels(void) {
  struct chv_error err;
  struct chv_pq_file_meta *m;
  struct chv_pq_hive_schema *h;

  /* nullable.impala: int_array is optional group (LIST) { repeated group
  ** list { optional int32 element } } */
  CHV_REQUIRE_OK(open_fixture("nullable.impala.parquet", &m, &err), &err);
  CHV_REQUIRE_OK(chv_pq_hive_schema_open(m, "n", &h, &err), &err);
  const struct chv_pq_field *arr = &h->root.children[1];
  CHV_CHECK_STREQ(arr->name, "int_array");
  CHV_CHECK(arr->type->id == CHV_TYPE_ARRAY && arr->nullable);
  CHV_CHECK_EQ_INT(arr->def_level, 1);
  CHV_CHECK_EQ_INT(arr->slot_def_level, 0);
  CHV_CHECK_EQ_INT(arr->rep_level, 0);
  CHV_REQUIRE(arr->repeated != NULL);
  CHV_CHECK_STREQ(arr->repeated->el->name, "list");
  CHV_CHECK_EQ_INT(arr->repeated->def_level, 2);
  CHV_CHECK_EQ_INT(arr->repeated->rep_level, 1);
  const struct chv_pq_field *el = &arr->children[0];
  CHV_CHECK_STREQ(el->name, "element");
  CHV_CHECK(el->nullable && el->leaf == 1 && el->conv == CHV_PQ_CONV_PLAIN);
  CHV_CHECK_EQ_INT(el->def_level, 3);
  CHV_CHECK_EQ_INT(el->rep_level, 1);
  /* int_map: MAP of string -> optional int */
  const struct chv_pq_field *map = &h->root.children[3];
  CHV_CHECK(map->type->id == CHV_TYPE_MAP && map->nchildren == 2);
  CHV_CHECK(!map->children[0].nullable && map->children[1].nullable);
  CHV_CHECK_EQ_INT(map->children[0].def_level, 2);
  CHV_CHECK_EQ_INT(map->children[1].def_level, 3);
  CHV_CHECK_STREQ(map->repeated->el->name, "map");
  chv_pq_hive_schema_close(h);
  chv_pq_file_meta_close(m);

  /* repeated_no_annotation: phoneNumbers (optional) { repeated group phone
  ** { required int64 number; optional binary kind (UTF8) } } */
  CHV_REQUIRE_OK(open_fixture("repeated_no_annotation.parquet", &m, &err),
                 &err);
  CHV_REQUIRE_OK(chv_pq_hive_schema_open(m, "r", &h, &err), &err);
  const struct chv_pq_field *pn = &h->root.children[1];
  CHV_CHECK(pn->type->id == CHV_TYPE_STRUCT && pn->nullable);
  const struct chv_pq_field *phone = &pn->children[0];
  CHV_CHECK(phone->type->id == CHV_TYPE_ARRAY && !phone->nullable);
  CHV_CHECK_EQ_INT(phone->def_level, 1); /* exists when phoneNumbers does */
  CHV_CHECK_EQ_INT(phone->repeated->rep_level, 1);
  CHV_CHECK(phone->children[0].type->id == CHV_TYPE_STRUCT &&
            !phone->children[0].nullable);
  CHV_CHECK_EQ_INT(phone->children[0].def_level, 2);
  CHV_CHECK_EQ_INT(phone->children[0].children[1].def_level, 3);
  chv_pq_hive_schema_close(h);
  chv_pq_file_meta_close(m);

  /* incorrect_map_schema: an OPTIONAL key is tolerated and said so. */
  CHV_REQUIRE_OK(open_fixture("incorrect_map_schema.parquet", &m, &err), &err);
  CHV_REQUIRE_OK(chv_pq_hive_schema_open(m, "i", &h, &err), &err);
  CHV_CHECK(h->root.children[0].children[0].nullable);
  chv_pq_hive_schema_close(h);
  chv_pq_file_meta_close(m);

  /* Conversions of annotated leaves. */
  static const struct {
    const char *file;
    int leaf;
    enum chv_pq_conv conv;
  } convs[] = {
      {"float16_nonzeros_and_nans.parquet", 0, CHV_PQ_CONV_FLOAT16},
      {"int96_from_spark.parquet", 0, CHV_PQ_CONV_INT96},
      {"concatenated_gzip_members.parquet", 0, CHV_PQ_CONV_UINT64},
      {"int32_decimal.parquet", 0, CHV_PQ_CONV_DECIMAL},
      {"alltypes_tiny_pages.parquet", 2, CHV_PQ_CONV_INT8},
      {"alltypes_tiny_pages.parquet", 3, CHV_PQ_CONV_INT16},
      {"bad_data/ARROW-GH-43605.parquet", 0, CHV_PQ_CONV_UINT16},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(convs); i++) {
    CHV_REQUIRE_OK(open_fixture(convs[i].file, &m, &err), &err);
    CHV_REQUIRE_OK(chv_pq_hive_schema_open(m, convs[i].file, &h, &err), &err);
    const struct chv_pq_field *f = &h->root.children[convs[i].leaf];
    CHV_CHECK_EQ_INT(f->leaf, convs[i].leaf);
    if (f->conv != convs[i].conv)
      fprintf(stderr, "%s: conv %s\n", convs[i].file,
              chv_pq_conv_name(f->conv));
    CHV_CHECK_EQ_INT(f->conv, convs[i].conv);
    chv_pq_hive_schema_close(h);
    chv_pq_file_meta_close(m);
  }
}

/* Details of a few footers. */
static void test_footer_details(void) {
  struct chv_error err;
  struct chv_pq_file_meta *m;

  CHV_REQUIRE_OK(
      open_fixture("column_chunk_key_value_metadata.parquet", &m, &err), &err);
  const struct chv_pq_column_meta *cm = m->row_groups[0].columns[0].meta_data;
  CHV_REQUIRE(cm != NULL && cm->nkv == 2);
  CHV_CHECK_STREQ(cm->kv[0].key, "foo");
  CHV_CHECK_STREQ(cm->kv[0].value, "bar");
  CHV_CHECK_STREQ(cm->kv[1].key, "thisiskeywithoutvalue");
  CHV_CHECK(cm->kv[1].value == NULL);
  chv_pq_file_meta_close(m);

  CHV_REQUIRE_OK(open_fixture("sort_columns.parquet", &m, &err), &err);
  CHV_REQUIRE(m->nrow_groups == 2);
  const struct chv_pq_row_group *g = &m->row_groups[0];
  CHV_REQUIRE(g->nsorting_columns == 2);
  CHV_CHECK(g->sorting_columns[0].column_idx == 0 &&
            g->sorting_columns[0].descending &&
            g->sorting_columns[0].nulls_first);
  CHV_CHECK(g->sorting_columns[1].column_idx == 1 &&
            !g->sorting_columns[1].descending &&
            !g->sorting_columns[1].nulls_first);
  chv_pq_file_meta_close(m);

  CHV_REQUIRE_OK(open_fixture("repeated_no_annotation.parquet", &m, &err),
                 &err);
  CHV_CHECK_EQ_INT(m->num_rows, 0);
  CHV_CHECK_EQ_INT(m->row_groups[0].num_rows, 6);
  chv_pq_file_meta_close(m);

  CHV_REQUIRE_OK(
      open_fixture("data_index_bloom_encoding_stats.parquet", &m, &err), &err);
  cm = m->row_groups[0].columns[0].meta_data;
  CHV_CHECK(cm->nencoding_stats > 0 && cm->has_bloom_filter_offset);
  CHV_CHECK(m->row_groups[0].columns[0].has_offset_index);
  CHV_CHECK(m->row_groups[0].columns[0].has_column_index);
  CHV_CHECK_EQ_INT(cm->codec, CHV_PQ_CODEC_GZIP);
  CHV_CHECK(cm->has_statistics && cm->statistics.has_null_count);
  CHV_CHECK(m->created_by != NULL);
  chv_pq_file_meta_close(m);

  CHV_REQUIRE_OK(open_fixture("dict-page-offset-zero.parquet", &m, &err), &err);
  cm = m->row_groups[0].columns[0].meta_data;
  CHV_CHECK(cm->has_dictionary_page_offset && cm->dictionary_page_offset == 0);
  chv_pq_file_meta_close(m);

  CHV_REQUIRE_OK(open_fixture("alltypes_tiny_pages.parquet", &m, &err), &err);
  CHV_CHECK_EQ_INT(m->ncolumn_orders, m->nleaves);
  CHV_CHECK_EQ_INT(m->column_orders[0], CHV_PQ_ORDER_TYPE_DEFINED);
  CHV_CHECK_EQ_INT(m->leaves[2]->el->logical.kind, CHV_PQ_LT_INTEGER);
  CHV_CHECK_EQ_INT(m->leaves[2]->el->logical.bit_width, 8);
  CHV_CHECK(m->leaves[2]->el->logical.is_signed);
  chv_pq_file_meta_close(m);
}

/* ---- page headers: every page of every chunk --------------------------- */

/* Walks the pages of every column chunk of a file held in memory: each
** header parses, the data pages' values add up to the chunk's num_values,
** and the walk ends exactly at the chunk's end.  Returns the first error. */
static int walk_pages(const char *name, const uint8_t *file, size_t size,
                      const struct chv_pq_file_meta *m, int *pages_out,
                      struct chv_error *err) {
  int pages = 0;
  for (int g = 0; g < m->nrow_groups; g++) {
    for (int c = 0; c < m->row_groups[g].ncolumns; c++) {
      const struct chv_pq_column_meta *cm =
          m->row_groups[g].columns[c].meta_data;
      int64_t pos, len;
      chv_pq_chunk_range(cm, &pos, &len);
      int64_t end = pos + len;
      int64_t values = 0;
      while (pos < end) {
        struct chv_pq_page_header h;
        size_t used;
        CHV_RETURN_IF_ERR(chv_pq_page_header_parse(
            file + pos, (size_t)(end - pos), name, pos, &h, &used, err));
        pages++;
        if (h.type == CHV_PQ_PAGE_DATA_PAGE) values += h.data_page.num_values;
        if (h.type == CHV_PQ_PAGE_DATA_PAGE_V2)
          values += h.data_page_v2.num_values;
        pos += (int64_t)used + h.compressed_page_size;
      }
      if (pos != end || values != cm->num_values)
        return chv_error_set(err, CHV_ECORRUPT,
                             "%s: column %d: walk ended at %" PRId64
                             " (chunk end %" PRId64 "), %" PRId64
                             " values for %" PRId64,
                             name, c, pos, end, values, cm->num_values);
    }
  }
  (void)size;
  *pages_out = pages;
  return CHV_OK;
}

static void test_page_headers(void) {
  static char names[256][128];
  int n = list_parquet(fixture_dir(), names, 256);
  int total = 0;
  for (int i = 0; i < n; i++) {
    size_t len;
    char *data = load(fixture_path(names[i]), &len);
    CHV_REQUIRE(data != NULL);
    struct chv_error err;
    struct chv_pq_file_meta *m;
    if (chv_pq_footer_parse(data, len, names[i], &m, &err) != CHV_OK) {
      chv_free(data);
      continue; /* reported by test_every_footer */
    }
    /* nation.dict-malformed's truncated page runs past its chunk (the
    ** README marks it malformed): a clean error. */
    bool malformed = strcmp(names[i], "nation.dict-malformed.parquet") == 0;
    int pages = 0;
    int rc = walk_pages(names[i], (const uint8_t *)data, len, m, &pages, &err);
    if (malformed) {
      CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
      CHV_CHECK_CONTAINS(err.msg, "walk ended at 466 (chunk end 451)");
    } else if (rc != CHV_OK) {
      fprintf(stderr, "%s\n", err.msg);
      chv_test_failed_ = 1;
    }
    total += pages;
    chv_pq_file_meta_close(m);
    chv_free(data);
  }
  CHV_CHECK(total > 40000); /* overflow_i16_page_cnt alone has 40000 */

  /* First pages of a few files, in detail. */
  size_t len;
  char *data = load(fixture_path("datapage_v2.snappy.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  struct chv_error err;
  struct chv_pq_file_meta *m;
  CHV_REQUIRE_OK(chv_pq_footer_parse(data, len, "v2", &m, &err), &err);
  const struct chv_pq_column_meta *cm = m->row_groups[0].columns[1].meta_data;
  struct chv_pq_page_header h;
  size_t used;
  CHV_REQUIRE_OK(chv_pq_page_header_parse(data + cm->data_page_offset,
                                          len - (size_t)cm->data_page_offset,
                                          "v2", cm->data_page_offset, &h, &used,
                                          &err),
                 &err);
  CHV_CHECK_EQ_INT(h.type, CHV_PQ_PAGE_DATA_PAGE_V2);
  CHV_CHECK(h.has_data_page_v2 && h.data_page_v2.num_values == 5);
  CHV_CHECK_EQ_INT(h.data_page_v2.encoding, CHV_PQ_ENC_DELTA_BINARY_PACKED);
  chv_pq_file_meta_close(m);
  chv_free(data);

  data = load(fixture_path("alltypes_plain.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  CHV_REQUIRE_OK(chv_pq_footer_parse(data, len, "a", &m, &err), &err);
  cm = m->row_groups[0].columns[0].meta_data;
  CHV_REQUIRE(cm->has_dictionary_page_offset);
  CHV_REQUIRE_OK(
      chv_pq_page_header_parse(data + cm->dictionary_page_offset,
                               len - (size_t)cm->dictionary_page_offset, "a",
                               cm->dictionary_page_offset, &h, &used, &err),
      &err);
  CHV_CHECK_EQ_INT(h.type, CHV_PQ_PAGE_DICTIONARY_PAGE);
  CHV_CHECK(h.has_dictionary_page && h.dictionary_page.num_values == 8);
  chv_pq_file_meta_close(m);
  chv_free(data);

  data = load(fixture_path("datapage_v1-uncompressed-checksum.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  CHV_REQUIRE_OK(chv_pq_footer_parse(data, len, "c", &m, &err), &err);
  cm = m->row_groups[0].columns[0].meta_data;
  CHV_REQUIRE_OK(chv_pq_page_header_parse(data + cm->data_page_offset,
                                          len - (size_t)cm->data_page_offset,
                                          "c", cm->data_page_offset, &h, &used,
                                          &err),
                 &err);
  CHV_CHECK(h.type == CHV_PQ_PAGE_DATA_PAGE && h.has_crc);
  CHV_CHECK_EQ_INT(h.data_page.encoding, CHV_PQ_ENC_PLAIN);
  chv_pq_file_meta_close(m);
  chv_free(data);
}

/* ---- page index -------------------------------------------------------- */

static void test_page_index(void) {
  size_t len;
  char *data = load(fixture_path("alltypes_tiny_pages.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  struct chv_error err;
  struct chv_pq_file_meta *m;
  CHV_REQUIRE_OK(chv_pq_footer_parse(data, len, "t", &m, &err), &err);
  chv_arena *arena;
  CHV_REQUIRE(chv_arena_open(0, &arena) == CHV_OK);
  int checked = 0;
  for (int c = 0; c < m->row_groups[0].ncolumns; c++) {
    const struct chv_pq_column_chunk *cc = &m->row_groups[0].columns[c];
    if (!cc->has_offset_index || !cc->has_column_index) continue;
    struct chv_pq_offset_index oi;
    struct chv_pq_column_index ci;
    CHV_REQUIRE_OK(chv_pq_offset_index_parse(data + cc->offset_index_offset,
                                             (size_t)cc->offset_index_length,
                                             arena, "t", &oi, &err),
                   &err);
    CHV_REQUIRE_OK(chv_pq_column_index_parse(data + cc->column_index_offset,
                                             (size_t)cc->column_index_length,
                                             arena, "t", &ci, &err),
                   &err);
    CHV_CHECK(oi.npages > 1 && oi.npages == ci.npages);
    CHV_CHECK_EQ_INT(oi.pages[0].first_row_index, 0);
    /* Each location points at a data page header of the stated size. */
    for (int p = 0; p < oi.npages; p++) {
      struct chv_pq_page_header h;
      size_t used;
      CHV_REQUIRE_OK(chv_pq_page_header_parse(data + oi.pages[p].offset,
                                              len - (size_t)oi.pages[p].offset,
                                              "t", oi.pages[p].offset, &h,
                                              &used, &err),
                     &err);
      CHV_CHECK(h.type == CHV_PQ_PAGE_DATA_PAGE);
      CHV_CHECK_EQ_INT((int64_t)used + h.compressed_page_size,
                       oi.pages[p].compressed_page_size);
    }
    CHV_CHECK(ci.null_counts != NULL);
    CHV_CHECK(!ci.null_pages[0] && ci.min_values[0].len > 0);
    /* Round trips. */
    struct chv_buf b;
    chv_buf_init(&b);
    struct chv_pq_offset_index oi2;
    struct chv_pq_column_index ci2;
    CHV_REQUIRE_OK(chv_pq_offset_index_write(&oi, &b, &err), &err);
    CHV_REQUIRE_OK(
        chv_pq_offset_index_parse(b.data, b.len, arena, "t", &oi2, &err), &err);
    CHV_CHECK(oi2.npages == oi.npages && oi2.pages[oi.npages - 1].offset ==
                                             oi.pages[oi.npages - 1].offset);
    chv_buf_reset(&b);
    CHV_REQUIRE_OK(chv_pq_column_index_write(&ci, &b, &err), &err);
    CHV_REQUIRE_OK(
        chv_pq_column_index_parse(b.data, b.len, arena, "t", &ci2, &err), &err);
    CHV_CHECK(ci2.npages == ci.npages &&
              ci2.boundary_order == ci.boundary_order);
    for (int p = 0; p < ci.npages; p++) {
      CHV_CHECK(ci2.null_pages[p] == ci.null_pages[p]);
      CHV_CHECK(ci2.max_values[p].len == ci.max_values[p].len &&
                memcmp(ci2.max_values[p].data, ci.max_values[p].data,
                       ci.max_values[p].len) == 0);
      CHV_CHECK(ci2.null_counts[p] == ci.null_counts[p]);
    }
    chv_buf_free(&b);
    checked++;
  }
  /* Every column but the INT96 one, which has no column index (its order
  ** would be undefined). */
  CHV_CHECK_EQ_INT(checked, 12);
  chv_arena_close(arena);
  chv_pq_file_meta_close(m);
  chv_free(data);

  /* A column index whose lists disagree: two null_pages, one min. */
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_thrift_writer w;
  chv_thrift_writer_init(&w, &b);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_field(&w, 1, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(&w, CHV_THRIFT_BOOL, 2);
  chv_thrift_write_bool(&w, false);
  chv_thrift_write_bool(&w, true);
  for (int16_t id = 2; id <= 3; id++) {
    chv_thrift_write_field(&w, id, CHV_THRIFT_LIST);
    chv_thrift_write_list_begin(&w, CHV_THRIFT_BINARY, id == 2 ? 1 : 2);
    for (int i = 0; i < (id == 2 ? 1 : 2); i++)
      chv_thrift_write_binary(&w, "a", 1);
  }
  chv_thrift_write_field_i32(&w, 4, CHV_PQ_BOUNDARY_ASCENDING);
  chv_thrift_write_struct_end(&w);
  CHV_REQUIRE(chv_thrift_writer_status(&w) == CHV_OK);
  chv_arena_open(0, &arena);
  struct chv_pq_column_index out;
  CHV_CHECK_EQ_INT(
      chv_pq_column_index_parse(b.data, b.len, arena, "x", &out, &err),
      CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "x: column index: its per-page lists differ");
  chv_buf_free(&b);
  chv_arena_close(arena);
}

/* ---- malformed fixtures ------------------------------------------------ */

static void test_bad_data(void) {
  static char names[64][128];
  char dir[700];
  snprintf(dir, sizeof dir, "%s/bad_data", fixture_dir());
  int n = list_parquet(dir, names, 64);
  CHV_REQUIRE(n >= 8);
  int failed = 0;
  for (int i = 0; i < n; i++) {
    char rel[200];
    snprintf(rel, sizeof rel, "bad_data/%.127s", names[i]);
    size_t len;
    char *data = load(fixture_path(rel), &len);
    CHV_REQUIRE(data != NULL);
    struct chv_error err;
    struct chv_pq_file_meta *m;
    int rc = chv_pq_footer_parse(data, len, rel, &m, &err);
    if (rc == CHV_OK) {
      /* Schema mapping and a walk over the page headers: either may fail,
      ** cleanly. */
      char *s = hive_string(m, rel, &err);
      chv_free(s);
      int pages;
      rc = walk_pages(rel, (const uint8_t *)data, len, m, &pages, &err);
      chv_pq_file_meta_close(m);
    }
    if (rc != CHV_OK) {
      failed++;
      CHV_CHECK(rc == CHV_ECORRUPT || rc == CHV_ENOTSUP);
      CHV_CHECK_CONTAINS(err.msg, rel);
    }
    chv_free(data);
  }
  CHV_CHECK(failed >= 2);

  /* PARQUET-1481: an invalid physical type, found in the footer. */
  struct chv_error err;
  struct chv_pq_file_meta *m;
  CHV_CHECK_EQ_INT(open_fixture("bad_data/PARQUET-1481.parquet", &m, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "invalid physical type -7");
  /* ARROW-RS-GH-6229-DICTHEADER: the footer's chunks run past the footer
  ** (validation says so); decoded without the file bounds, the first
  ** page's header has a negative num_values. */
  size_t len;
  char *data =
      load(fixture_path("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(data, len, "d.parquet", &m, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "d.parquet: row group 0, column name: column "
                              "chunk 129 (+322 bytes) is past the data");
  uint32_t flen =
      (uint32_t)(uint8_t)data[len - 8] | (uint32_t)(uint8_t)data[len - 7] << 8;
  CHV_REQUIRE_OK(
      chv_pq_file_meta_decode(data + len - 8 - flen, flen, -1, "d", &m, &err),
      &err);
  /* Column 0's page header has num_values as an i16. */
  const struct chv_pq_column_meta *cm = m->row_groups[0].columns[0].meta_data;
  struct chv_pq_page_header h;
  size_t used;
  CHV_CHECK_EQ_INT(chv_pq_page_header_parse(data + cm->data_page_offset,
                                            len - (size_t)cm->data_page_offset,
                                            "d", cm->data_page_offset, &h,
                                            &used, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "d: page header at offset 4: DataPageHeader "
                              "lacks its required field num_values: it came "
                              "as i16, not i32");
  /* Column 1's dictionary page header has num_values -26. */
  cm = m->row_groups[0].columns[1].meta_data;
  CHV_CHECK_EQ_INT(chv_pq_page_header_parse(data + cm->data_page_offset,
                                            len - (size_t)cm->data_page_offset,
                                            "d", cm->data_page_offset, &h,
                                            &used, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "d: page header at offset 129: num_values -26 is "
                           "negative");
  chv_pq_file_meta_close(m);
  chv_free(data);
}

/* ---- file-level errors ------------------------------------------------- */

static void test_file_errors(void) {
  struct chv_error err;
  struct chv_pq_file_meta *m = NULL;
  uint8_t f[400];
  memset(f, 0, sizeof f);

  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f, 0, "x.parquet", &m, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "x.parquet: file of 0 bytes is too small");
  CHV_CHECK_EQ_INT(chv_pq_footer_parse("PAR1PAR1", 8, "x.parquet", &m, &err),
                   CHV_ECORRUPT);

  memcpy(f, "PAR1", 4);
  memcpy(f + 396, "PAR1", 4);
  f[392] = 0x40; /* 123456 = 0x01e240 */
  f[393] = 0xe2;
  f[394] = 0x01;
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f, 400, "x.parquet", &m, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "x.parquet: footer length 123456 exceeds file "
                           "size 400");
  f[392] = 0x8b; /* 395: no room for the leading magic */
  f[393] = 0x01;
  f[394] = 0;
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f, 400, "x.parquet", &m, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "footer length 395");

  memcpy(f + 396, "PARE", 4);
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f, 400, "x.parquet", &m, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_STREQ(err.msg,
                  "x.parquet: encrypted Parquet files are not supported");
  memcpy(f + 396, "PAR2", 4);
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f, 400, "x.parquet", &m, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "does not end with \"PAR1\"");

  /* A good footer behind a bad leading magic. */
  size_t len;
  char *data = load(fixture_path("binary.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  data[0] = 'X';
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(data, len, "b", &m, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "does not start with");
  chv_free(data);
  CHV_CHECK(m == NULL); /* never written on failure */

  /* Through the file system: a footer longer than the first read (the
  ** 64 KiB tail), in a file written here. */
  static char big[100000];
  memset(big, 'v', sizeof big - 1);
  struct chv_pq_schema_element se[2];
  memset(se, 0, sizeof se);
  se[0].name = "schema";
  se[0].has_num_children = true;
  se[0].num_children = 1;
  se[1].name = "a";
  se[1].has_type = se[1].has_repetition = true;
  se[1].type = CHV_PQ_TYPE_INT32;
  se[1].repetition = CHV_PQ_REP_OPTIONAL;
  struct chv_pq_kv kv = {"big", big, 3, (uint32_t)strlen(big)};
  struct chv_pq_file_meta fm = {0};
  fm.version = 1;
  fm.nschema = 2;
  fm.schema = se;
  fm.nkv = 1;
  fm.kv = &kv;
  struct chv_buf fb;
  chv_buf_init(&fb);
  chv_buf_append(&fb, "PAR1", 4);
  CHV_REQUIRE_OK(chv_pq_footer_write(&fm, &fb, &err), &err);
  char path[700];
  snprintf(path, sizeof path, "%s/big.parquet", chv_test_tmpdir());
  CHV_REQUIRE_OK(
      chv_fs_write_atomic(chv_fs_local(), path, fb.data, fb.len, &err), &err);
  struct chv_file *fl;
  CHV_REQUIRE_OK(chv_fs_open(chv_fs_local(), path, &fl, &err), &err);
  CHV_REQUIRE_OK(chv_pq_footer_read(fl, -1, NULL, &m, &err), &err);
  CHV_CHECK(m->footer_length > CHV_PQ_FOOTER_READ_SIZE);
  CHV_CHECK(m->nkv == 1 && m->kv[0].value_len == strlen(big));
  chv_pq_file_meta_close(m);
  /* The same file cut short: the footer length no longer fits. */
  CHV_CHECK_EQ_INT(chv_pq_footer_read(fl, 100, "cut.parquet", &m, &err),
                   CHV_ECORRUPT);
  chv_file_close(fl);
  chv_buf_free(&fb);
}

/* ---- decoding is bounded ----------------------------------------------- */

/* Every prefix of a real footer fails cleanly, and so does (or parses) the
** footer with any one byte changed; copies sit in exactly-sized buffers. */
static void test_truncated_and_flipped(void) {
  size_t len;
  char *data = load(fixture_path("nullable.impala.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  uint32_t n = (uint32_t)(uint8_t)data[len - 8] |
               (uint32_t)(uint8_t)data[len - 7] << 8 |
               (uint32_t)(uint8_t)data[len - 6] << 16 |
               (uint32_t)(uint8_t)data[len - 5] << 24;
  const char *meta = data + len - 8 - n;
  int bad = 0;
  for (uint32_t k = 0; k < n; k++) {
    char *copy = malloc(k ? k : 1);
    memcpy(copy, meta, k);
    struct chv_error err;
    struct chv_pq_file_meta *m;
    int rc = chv_pq_file_meta_decode(copy, k, -1, "t", &m, &err);
    if (rc != CHV_ECORRUPT || strncmp(err.msg, "t: ", 3) != 0) {
      if (bad++ < 5) fprintf(stderr, "prefix %u: %d %s\n", k, rc, err.msg);
      if (rc == CHV_OK) chv_pq_file_meta_close(m);
    }
    free(copy);
  }
  CHV_CHECK_EQ_INT(bad, 0);

  /* Any one byte set to a few values. */
  static const uint8_t vals[] = {0x00, 0xff, 0x7f, 0x15, 0x19, 0x80};
  char *copy = malloc(n);
  for (uint32_t k = 0; k < n; k++) {
    for (size_t v = 0; v < sizeof vals; v++) {
      memcpy(copy, meta, n);
      copy[k] = (char)vals[v];
      struct chv_error err;
      struct chv_pq_file_meta *m;
      int rc = chv_pq_file_meta_decode(copy, n, -1, "t", &m, &err);
      if (rc == CHV_OK) {
        struct chv_pq_hive_schema *h;
        if (chv_pq_hive_schema_open(m, "t", &h, &err) == CHV_OK)
          chv_pq_hive_schema_close(h);
        chv_pq_file_meta_close(m);
      } else if (rc != CHV_ECORRUPT && rc != CHV_ENOTSUP) {
        if (bad++ < 5) fprintf(stderr, "byte %u: %d %s\n", k, rc, err.msg);
      }
    }
  }
  CHV_CHECK_EQ_INT(bad, 0);
  free(copy);
  chv_free(data);
}

/* Every allocation of decoding a footer and mapping its schema fails in
** turn: each failure is CHV_ENOMEM and nothing leaks (ASan). */
static void test_oom(void) {
  size_t len;
  char *data = load(fixture_path("nonnullable.impala.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  int ok = 0;
  for (long k = 1; k < 10000 && !ok; k++) {
    struct chv_error err;
    struct chv_pq_file_meta *m = NULL;
    struct chv_pq_hive_schema *h = NULL;
    chv_alloc_fail_after(k);
    int rc = chv_pq_footer_parse(data, len, "o", &m, &err);
    if (rc == CHV_OK) rc = chv_pq_hive_schema_open(m, "o", &h, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK)
      ok = 1;
    else
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    chv_pq_hive_schema_close(h);
    chv_pq_file_meta_close(m);
  }
  CHV_CHECK(ok);
  chv_free(data);
}

/* ---- writing ----------------------------------------------------------- */

/* A fixture footer written back decodes to the same model, and writing that
** gives the same bytes again. */
static void test_rewrite_fixtures(void) {
  static const char *files[] = {"nullable.impala.parquet",
                                "alltypes_tiny_pages.parquet",
                                "data_index_bloom_encoding_stats.parquet",
                                "sort_columns.parquet",
                                "column_chunk_key_value_metadata.parquet",
                                "float16_nonzeros_and_nans.parquet"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(files); i++) {
    struct chv_error err;
    struct chv_pq_file_meta *m, *m2;
    CHV_REQUIRE_OK(open_fixture(files[i], &m, &err), &err);
    struct chv_buf b1, b2;
    chv_buf_init(&b1);
    chv_buf_init(&b2);
    CHV_REQUIRE_OK(chv_pq_file_meta_write(m, &b1, &err), &err);
    CHV_REQUIRE_OK(
        chv_pq_file_meta_decode(b1.data, b1.len, -1, files[i], &m2, &err),
        &err);
    CHV_REQUIRE_OK(chv_pq_file_meta_write(m2, &b2, &err), &err);
    CHV_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
    CHV_CHECK_EQ_INT(m2->nschema, m->nschema);
    CHV_CHECK_EQ_INT(m2->nleaves, m->nleaves);
    CHV_CHECK_EQ_INT(m2->num_rows, m->num_rows);
    CHV_CHECK_STREQ(m2->created_by, m->created_by);
    for (int g = 0; g < m->nrow_groups; g++)
      for (int c = 0; c < m->row_groups[g].ncolumns; c++) {
        const struct chv_pq_column_meta *x =
            m->row_groups[g].columns[c].meta_data;
        const struct chv_pq_column_meta *y =
            m2->row_groups[g].columns[c].meta_data;
        CHV_CHECK(x->data_page_offset == y->data_page_offset &&
                  x->total_compressed_size == y->total_compressed_size &&
                  x->num_values == y->num_values && x->codec == y->codec &&
                  x->nencodings == y->nencodings &&
                  x->has_statistics == y->has_statistics);
      }
    char *s1 = hive_string(m, files[i], &err);
    char *s2 = hive_string(m2, files[i], &err);
    CHV_CHECK_STREQ(s1, s2);
    chv_free(s1);
    chv_free(s2);
    chv_buf_free(&b1);
    chv_buf_free(&b2);
    chv_pq_file_meta_close(m);
    chv_pq_file_meta_close(m2);
  }
}

/* A footer with every field of the model set, written and read back. */
static void test_write_read_full(void) {
  struct chv_pq_schema_element se[4];
  memset(se, 0, sizeof se);
  se[0].name = "schema";
  se[0].has_num_children = true;
  se[0].num_children = 3;
  se[1].name = "d";
  se[1].has_type = se[1].has_repetition = true;
  se[1].type = CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY;
  se[1].repetition = CHV_PQ_REP_OPTIONAL;
  se[1].has_type_length = true;
  se[1].type_length = 9;
  se[1].has_converted_type = se[1].has_scale = se[1].has_precision = true;
  se[1].converted_type = CHV_PQ_CT_DECIMAL;
  se[1].scale = 3;
  se[1].precision = 20;
  se[1].has_field_id = true;
  se[1].field_id = -42;
  se[1].logical.kind = CHV_PQ_LT_DECIMAL;
  se[1].logical.scale = 3;
  se[1].logical.precision = 20;
  se[2].name = "ts";
  se[2].has_type = se[2].has_repetition = true;
  se[2].type = CHV_PQ_TYPE_INT64;
  se[2].repetition = CHV_PQ_REP_REQUIRED;
  se[2].logical.kind = CHV_PQ_LT_TIMESTAMP;
  se[2].logical.unit = CHV_PQ_UNIT_NANOS;
  se[2].logical.utc_adjusted = true;
  se[3].name = "u";
  se[3].has_type = se[3].has_repetition = true;
  se[3].type = CHV_PQ_TYPE_INT32;
  se[3].repetition = CHV_PQ_REP_REQUIRED;
  se[3].logical.kind = CHV_PQ_LT_INTEGER;
  se[3].logical.bit_width = 16;
  se[3].logical.is_signed = false;

  static const char *p1[] = {"d"}, *p2[] = {"ts"}, *p3[] = {"u"};
  const char **paths[3] = {p1, p2, p3};
  int32_t encs[2] = {CHV_PQ_ENC_PLAIN, CHV_PQ_ENC_RLE};
  struct chv_pq_kv kv[2] = {{"k", "v", 1, 1}, {"novalue", NULL, 7, 0}};
  struct chv_pq_page_encoding_stats es = {CHV_PQ_PAGE_DATA_PAGE,
                                          CHV_PQ_ENC_PLAIN, 3};
  struct chv_pq_column_meta cm[3];
  struct chv_pq_column_chunk cc[3];
  memset(cm, 0, sizeof cm);
  memset(cc, 0, sizeof cc);
  for (int i = 0; i < 3; i++) {
    cm[i].type = se[i + 1].type;
    cm[i].nencodings = 2;
    cm[i].encodings = encs;
    cm[i].npath = 1;
    cm[i].path_in_schema = paths[i];
    cm[i].codec = CHV_PQ_CODEC_ZSTD;
    cm[i].num_values = 10 + i;
    cm[i].total_uncompressed_size = 300;
    cm[i].total_compressed_size = 100;
    cm[i].data_page_offset = 4 + 100 * i;
    cc[i].file_offset = 4 + 100 * i;
    cc[i].meta_data = &cm[i];
  }
  cm[0].nkv = 2;
  cm[0].kv = kv;
  cm[0].has_dictionary_page_offset = true;
  cm[0].dictionary_page_offset = 4;
  cm[0].data_page_offset = 50;
  cm[0].has_statistics = true;
  cm[0].statistics.has_max = cm[0].statistics.has_min = true;
  cm[0].statistics.max = (struct chv_pq_bytes){(const uint8_t *)"zz", 2};
  cm[0].statistics.min = (struct chv_pq_bytes){(const uint8_t *)"", 0};
  cm[0].statistics.has_null_count = true;
  cm[0].statistics.null_count = 0;
  cm[0].statistics.has_distinct_count = true;
  cm[0].statistics.distinct_count = 7;
  cm[0].statistics.has_max_value = cm[0].statistics.has_min_value = true;
  cm[0].statistics.max_value =
      (struct chv_pq_bytes){(const uint8_t *)"m\0x", 3};
  cm[0].statistics.min_value = (struct chv_pq_bytes){(const uint8_t *)"a", 1};
  cm[0].statistics.has_is_max_value_exact = true;
  cm[0].statistics.is_max_value_exact = true;
  cm[0].statistics.has_is_min_value_exact = true;
  cm[0].statistics.is_min_value_exact = false;
  cm[0].statistics.has_nan_count = true;
  cm[0].statistics.nan_count = 1;
  cm[0].nencoding_stats = 1;
  cm[0].encoding_stats = &es;
  cm[0].has_bloom_filter_offset = cm[0].has_bloom_filter_length = true;
  cm[0].bloom_filter_offset = 310;
  cm[0].bloom_filter_length = 20;
  cm[1].has_index_page_offset = true;
  cm[1].index_page_offset = 77;
  cc[1].has_offset_index = cc[1].has_column_index = true;
  cc[1].offset_index_offset = 330;
  cc[1].offset_index_length = 10;
  cc[1].column_index_offset = 340;
  cc[1].column_index_length = 10;
  struct chv_pq_sorting_column sc = {2, true, false};
  struct chv_pq_row_group rg = {0};
  rg.ncolumns = 3;
  rg.columns = cc;
  rg.total_byte_size = 900;
  rg.num_rows = 10;
  rg.nsorting_columns = 1;
  rg.sorting_columns = &sc;
  rg.has_file_offset = rg.has_total_compressed_size = rg.has_ordinal = true;
  rg.file_offset = 4;
  rg.total_compressed_size = 300;
  rg.ordinal = 0;
  int32_t orders[3] = {CHV_PQ_ORDER_TYPE_DEFINED, CHV_PQ_ORDER_TYPE_DEFINED,
                       CHV_PQ_ORDER_IEEE_754_TOTAL};
  struct chv_pq_file_meta m = {0};
  m.version = 2;
  m.nschema = 4;
  m.schema = se;
  m.num_rows = 10;
  m.nrow_groups = 1;
  m.row_groups = &rg;
  m.nkv = 2;
  m.kv = kv;
  m.created_by = "chive test";
  m.ncolumn_orders = 3;
  m.column_orders = orders;

  /* A whole file: magic, 400 bytes of "data", footer. */
  struct chv_buf f;
  chv_buf_init(&f);
  chv_buf_append(&f, "PAR1", 4);
  for (int i = 0; i < 400; i++)
    chv_buf_putc(&f, 'x');
  struct chv_error err;
  CHV_REQUIRE_OK(chv_pq_footer_write(&m, &f, &err), &err);
  struct chv_pq_file_meta *r;
  CHV_REQUIRE_OK(chv_pq_footer_parse(f.data, f.len, "full", &r, &err), &err);

  CHV_CHECK_EQ_INT(r->version, 2);
  CHV_CHECK_EQ_INT(r->footer_offset, 404);
  CHV_CHECK_STREQ(r->created_by, "chive test");
  CHV_CHECK(r->nkv == 2 && r->kv[1].value == NULL &&
            strcmp(r->kv[0].value, "v") == 0);
  const struct chv_pq_schema_element *d = &r->schema[1];
  CHV_CHECK(d->has_type_length && d->type_length == 9);
  CHV_CHECK(d->has_converted_type && d->converted_type == CHV_PQ_CT_DECIMAL);
  CHV_CHECK(d->has_field_id && d->field_id == -42);
  CHV_CHECK(d->logical.kind == CHV_PQ_LT_DECIMAL &&
            d->logical.precision == 20 && d->logical.scale == 3);
  CHV_CHECK(r->schema[2].logical.kind == CHV_PQ_LT_TIMESTAMP &&
            r->schema[2].logical.unit == CHV_PQ_UNIT_NANOS &&
            r->schema[2].logical.utc_adjusted);
  CHV_CHECK(r->schema[3].logical.kind == CHV_PQ_LT_INTEGER &&
            r->schema[3].logical.bit_width == 16 &&
            !r->schema[3].logical.is_signed);
  const struct chv_pq_row_group *g = &r->row_groups[0];
  CHV_CHECK(g->has_ordinal && g->ordinal == 0 && g->file_offset == 4 &&
            g->total_compressed_size == 300 && g->nsorting_columns == 1 &&
            g->sorting_columns[0].column_idx == 2 &&
            g->sorting_columns[0].descending &&
            !g->sorting_columns[0].nulls_first);
  const struct chv_pq_column_meta *c0 = g->columns[0].meta_data;
  const struct chv_pq_statistics *st = &c0->statistics;
  CHV_CHECK(c0->has_statistics && st->has_max && st->max.len == 2 &&
            st->has_min && st->min.len == 0 && st->has_null_count &&
            st->null_count == 0 && st->distinct_count == 7 &&
            st->max_value.len == 3 && st->max_value.data[1] == 0 &&
            st->is_max_value_exact && st->has_is_min_value_exact &&
            !st->is_min_value_exact && st->nan_count == 1);
  CHV_CHECK(c0->nkv == 2 && c0->nencoding_stats == 1 &&
            c0->encoding_stats[0].count == 3 && c0->bloom_filter_length == 20);
  CHV_CHECK(c0->dictionary_page_offset == 4 && c0->codec == CHV_PQ_CODEC_ZSTD);
  CHV_CHECK(g->columns[1].has_offset_index && g->columns[1].has_column_index &&
            g->columns[1].column_index_offset == 340 &&
            g->columns[1].meta_data->index_page_offset == 77);
  CHV_CHECK(!g->columns[0].has_offset_index);
  CHV_CHECK(r->ncolumn_orders == 3 &&
            r->column_orders[2] == CHV_PQ_ORDER_IEEE_754_TOTAL);

  char *s = hive_string(r, "full", &err);
  CHV_CHECK_STREQ(s, "struct<d:decimal(20,3),ts:timestamp,u:int>");
  chv_free(s);
  chv_pq_file_meta_close(r);

  /* Validation: a chunk running into the footer. */
  cm[2].total_compressed_size = 201;
  chv_buf_reset(&f);
  chv_buf_append(&f, "PAR1", 4);
  for (int i = 0; i < 400; i++)
    chv_buf_putc(&f, 'x');
  CHV_REQUIRE_OK(chv_pq_footer_write(&m, &f, &err), &err);
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f.data, f.len, "x.parquet", &r, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "x.parquet: row group 0, column u: column chunk "
                           "204 (+201 bytes) is past the data (footer at "
                           "404)");
  cm[2].total_compressed_size = 100;
  cm[2].num_values = -1;
  chv_buf_reset(&f);
  chv_buf_append(&f, "PAR1", 4);
  for (int i = 0; i < 400; i++)
    chv_buf_putc(&f, 'x');
  CHV_REQUIRE_OK(chv_pq_footer_write(&m, &f, &err), &err);
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f.data, f.len, "x.parquet", &r, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "x.parquet: row group 0, column u: num_values -1 "
                           "is negative");
  cm[2].num_values = 12;
  p3[0] = "v";
  chv_buf_reset(&f);
  chv_buf_append(&f, "PAR1", 4);
  for (int i = 0; i < 400; i++)
    chv_buf_putc(&f, 'x');
  CHV_REQUIRE_OK(chv_pq_footer_write(&m, &f, &err), &err);
  CHV_CHECK_EQ_INT(chv_pq_footer_parse(f.data, f.len, "x.parquet", &r, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "path_in_schema 'v' does not match");
  p3[0] = "u";
  chv_buf_free(&f);
}

static void test_page_header_round_trip(void) {
  struct chv_pq_page_header h[3];
  memset(h, 0, sizeof h);
  h[0].type = CHV_PQ_PAGE_DATA_PAGE;
  h[0].uncompressed_page_size = 100;
  h[0].compressed_page_size = 80;
  h[0].has_crc = true;
  h[0].crc = 0xdeadbeef;
  h[0].has_data_page = true;
  h[0].data_page.num_values = 20;
  h[0].data_page.encoding = CHV_PQ_ENC_PLAIN;
  h[0].data_page.definition_level_encoding = CHV_PQ_ENC_RLE;
  h[0].data_page.repetition_level_encoding = CHV_PQ_ENC_BIT_PACKED;
  h[0].data_page.has_statistics = true;
  h[0].data_page.statistics.has_null_count = true;
  h[0].data_page.statistics.null_count = 3;
  h[0].data_page.statistics.has_max_value = true;
  h[0].data_page.statistics.max_value =
      (struct chv_pq_bytes){(const uint8_t *)"\x01\x02", 2};
  h[1].type = CHV_PQ_PAGE_DICTIONARY_PAGE;
  h[1].uncompressed_page_size = 10;
  h[1].compressed_page_size = 10;
  h[1].has_dictionary_page = true;
  h[1].dictionary_page.num_values = 2;
  h[1].dictionary_page.encoding = CHV_PQ_ENC_PLAIN;
  h[1].dictionary_page.has_is_sorted = true;
  h[1].dictionary_page.is_sorted = true;
  h[2].type = CHV_PQ_PAGE_DATA_PAGE_V2;
  h[2].uncompressed_page_size = 50;
  h[2].compressed_page_size = 40;
  h[2].has_data_page_v2 = true;
  h[2].data_page_v2.num_values = 9;
  h[2].data_page_v2.num_nulls = 2;
  h[2].data_page_v2.num_rows = 4;
  h[2].data_page_v2.encoding = CHV_PQ_ENC_DELTA_BYTE_ARRAY;
  h[2].data_page_v2.definition_levels_byte_length = 5;
  h[2].data_page_v2.repetition_levels_byte_length = 6;
  h[2].data_page_v2.is_compressed = false;

  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_error err;
  for (int i = 0; i < 3; i++)
    CHV_REQUIRE_OK(chv_pq_page_header_write(&h[i], &b, &err), &err);
  size_t pos = 0;
  for (int i = 0; i < 3; i++) {
    struct chv_pq_page_header r;
    size_t used;
    CHV_REQUIRE_OK(chv_pq_page_header_parse(b.data + pos, b.len - pos, "p",
                                            (int64_t)pos, &r, &used, &err),
                   &err);
    pos += used;
    CHV_CHECK_EQ_INT(r.type, h[i].type);
    CHV_CHECK_EQ_INT(r.compressed_page_size, h[i].compressed_page_size);
    CHV_CHECK_EQ_INT(r.has_crc, h[i].has_crc);
    if (i == 0)
      CHV_CHECK(r.crc == 0xdeadbeef && r.data_page.num_values == 20 &&
                r.data_page.repetition_level_encoding ==
                    CHV_PQ_ENC_BIT_PACKED &&
                r.data_page.has_statistics &&
                r.data_page.statistics.null_count == 3 &&
                r.data_page.statistics.max_value.len == 2 &&
                (const char *)r.data_page.statistics.max_value.data >= b.data);
    if (i == 1)
      CHV_CHECK(r.dictionary_page.num_values == 2 &&
                r.dictionary_page.has_is_sorted && r.dictionary_page.is_sorted);
    if (i == 2)
      CHV_CHECK(!r.data_page_v2.is_compressed &&
                r.data_page_v2.num_nulls == 2 &&
                r.data_page_v2.repetition_levels_byte_length == 6);
  }
  CHV_CHECK_EQ_INT(pos, b.len);

  /* is_compressed defaults to true; v2 levels must fit the page. */
  h[2].data_page_v2.is_compressed = true;
  chv_buf_reset(&b);
  chv_pq_page_header_write(&h[2], &b, &err);
  struct chv_pq_page_header r;
  size_t used;
  CHV_CHECK_OK(chv_pq_page_header_parse(b.data, b.len, "p", 0, &r, &used, &err),
               &err);
  CHV_CHECK(r.data_page_v2.is_compressed);
  h[2].data_page_v2.definition_levels_byte_length = 35;
  chv_buf_reset(&b);
  chv_pq_page_header_write(&h[2], &b, &err);
  CHV_CHECK_EQ_INT(chv_pq_page_header_parse(b.data, b.len, "p.parquet", 123, &r,
                                            &used, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "p.parquet: page header at offset 123: 41 "
                              "bytes of levels exceed the page");
  /* A DATA_PAGE without its sub-header; a missing required field. */
  h[0].has_data_page = false;
  chv_buf_reset(&b);
  chv_pq_page_header_write(&h[0], &b, &err);
  CHV_CHECK_EQ_INT(
      chv_pq_page_header_parse(b.data, b.len, "p", -1, &r, &used, &err),
      CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "DATA_PAGE without data_page_header");
  static const uint8_t no_size[] = {0x15, 0x00, 0x15, 0x02, 0x00};
  CHV_CHECK_EQ_INT(chv_pq_page_header_parse(no_size, sizeof no_size, "p", -1,
                                            &r, &used, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "PageHeader lacks its required field "
                              "compressed_page_size");
  /* Unknown fields, also of known ids with another wire type, are skipped. */
  static const uint8_t extra[] = {0x15, 0x02, 0x15, 0x02, 0x15,
                                  0x04, 0x58, 0x01, 'z', /* id 8 as a binary */
                                  0x1c, 0x00,            /* id 9: a struct */
                                  0x00};
  CHV_CHECK_OK(
      chv_pq_page_header_parse(extra, sizeof extra, "p", -1, &r, &used, &err),
      &err);
  CHV_CHECK_EQ_INT(used, sizeof extra);
  CHV_CHECK(r.type == CHV_PQ_PAGE_INDEX_PAGE && r.compressed_page_size == 2 &&
            !r.has_data_page_v2);
  chv_buf_free(&b);
}

/* ---- schema tree and mapping on hand-made schemas ---------------------- */

/* Schema element shorthands. */
static struct chv_pq_schema_element leaf(const char *name, int32_t rep,
                                         int32_t type) {
  struct chv_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = name;
  e.has_repetition = true;
  e.repetition = rep;
  e.has_type = true;
  e.type = type;
  if (type == CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY) {
    e.has_type_length = true;
    e.type_length = 16;
  }
  return e;
}

static struct chv_pq_schema_element group(const char *name, int32_t rep,
                                          int n) {
  struct chv_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = name;
  e.has_repetition = rep >= 0;
  e.repetition = rep;
  e.has_num_children = true;
  e.num_children = n;
  return e;
}

static struct chv_pq_schema_element ct(struct chv_pq_schema_element e,
                                       int32_t converted) {
  e.has_converted_type = true;
  e.converted_type = converted;
  return e;
}

static struct chv_pq_schema_element lt(struct chv_pq_schema_element e,
                                       int32_t kind) {
  e.logical.kind = kind;
  return e;
}

/* Decode a footer made of the schema alone (no row groups) and map it;
** returns the status, *type the Hive type string. */
static int map_schema(struct chv_pq_schema_element *se, int n, char **type,
                      struct chv_error *err) {
  struct chv_pq_file_meta m = {0};
  m.version = 1;
  m.nschema = n;
  m.schema = se;
  struct chv_buf b;
  chv_buf_init(&b);
  int rc = chv_pq_file_meta_write(&m, &b, err);
  struct chv_pq_file_meta *r = NULL;
  if (rc == CHV_OK)
    rc = chv_pq_file_meta_decode(b.data, b.len, -1, "s", &r, err);
  chv_buf_free(&b);
  *type = NULL;
  if (rc == CHV_OK) {
    *type = hive_string(r, "s", err);
    if (*type == NULL) rc = err->code;
  }
  chv_pq_file_meta_close(r);
  return rc;
}

#define R CHV_PQ_REP_REQUIRED
#define O CHV_PQ_REP_OPTIONAL
#define P CHV_PQ_REP_REPEATED

static void expect_map(struct chv_pq_schema_element *se, int n,
                       const char *want, int line) {
  struct chv_error err;
  char *s;
  int rc = map_schema(se, n, &s, &err);
  if (rc != CHV_OK || s == NULL || strcmp(s, want) != 0) {
    fprintf(stderr, "line %d: got %s (%s), want %s\n", line, s ? s : "-",
            rc ? err.msg : "ok", want);
    chv_test_failed_ = 1;
  }
  chv_free(s);
}
#define EXPECT_MAP(se, want) expect_map(se, CHV_ARRAY_SIZE(se), want, __LINE__)

static void expect_fail(struct chv_pq_schema_element *se, int n, int code,
                        const char *msg, int line) {
  struct chv_error err;
  char *s;
  int rc = map_schema(se, n, &s, &err);
  if (rc != code || strstr(err.msg, msg) == NULL) {
    fprintf(stderr, "line %d: got %d (%s), want %d (%s)\n", line, rc,
            rc ? err.msg : s, code, msg);
    chv_test_failed_ = 1;
  }
  chv_free(s);
}
#define EXPECT_FAIL(se, code, msg)                                             \
  expect_fail(se, CHV_ARRAY_SIZE(se), code, msg, __LINE__)

static void test_primitive_mapping(void) {
  struct chv_pq_schema_element s[30];
  int k = 0;
  s[k++] = group("schema", -1, 0);
#define INTL(name, type, w, sg)                                                \
  do {                                                                         \
    s[k] = lt(leaf(name, O, type), CHV_PQ_LT_INTEGER);                         \
    s[k].logical.bit_width = w;                                                \
    s[k++].logical.is_signed = sg;                                             \
  } while (0)
  INTL("i8", CHV_PQ_TYPE_INT32, 8, true);
  INTL("i16", CHV_PQ_TYPE_INT32, 16, true);
  INTL("i32", CHV_PQ_TYPE_INT32, 32, true);
  INTL("u8", CHV_PQ_TYPE_INT32, 8, false);
  INTL("u16", CHV_PQ_TYPE_INT32, 16, false);
  INTL("u32", CHV_PQ_TYPE_INT32, 32, false);
  INTL("u64", CHV_PQ_TYPE_INT64, 64, false);
  INTL("s64", CHV_PQ_TYPE_INT64, 64, true);
  s[k++] = ct(leaf("c_u8", O, CHV_PQ_TYPE_INT32), CHV_PQ_CT_UINT_8);
  s[k++] = ct(leaf("c_u32", O, CHV_PQ_TYPE_INT32), CHV_PQ_CT_UINT_32);
  s[k++] = ct(leaf("c_i16", O, CHV_PQ_TYPE_INT32), CHV_PQ_CT_INT_16);
  s[k++] = ct(leaf("c_u64", O, CHV_PQ_TYPE_INT64), CHV_PQ_CT_UINT_64);
  s[k++] = lt(leaf("date", O, CHV_PQ_TYPE_INT32), CHV_PQ_LT_DATE);
  s[k] = lt(leaf("time_ms", O, CHV_PQ_TYPE_INT32), CHV_PQ_LT_TIME);
  s[k++].logical.unit = CHV_PQ_UNIT_MILLIS;
  s[k++] = ct(leaf("time_us", O, CHV_PQ_TYPE_INT64), CHV_PQ_CT_TIME_MICROS);
  s[k] = lt(leaf("ts_ns", O, CHV_PQ_TYPE_INT64), CHV_PQ_LT_TIMESTAMP);
  s[k++].logical.unit = CHV_PQ_UNIT_NANOS;
  s[k++] = ct(leaf("ts_ms", O, CHV_PQ_TYPE_INT64), CHV_PQ_CT_TIMESTAMP_MILLIS);
  s[k++] = leaf("i96", O, CHV_PQ_TYPE_INT96);
  s[k++] = lt(leaf("json", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_LT_JSON);
  s[k++] = ct(leaf("enum", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_CT_ENUM);
  s[k++] = lt(leaf("bson", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_LT_BSON);
  s[k++] =
      lt(leaf("uuid", O, CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY), CHV_PQ_LT_UUID);
  s[k++] = lt(leaf("nul", O, CHV_PQ_TYPE_INT32), CHV_PQ_LT_UNKNOWN);
  s[k] = ct(leaf("dec64", O, CHV_PQ_TYPE_INT64), CHV_PQ_CT_DECIMAL);
  s[k].has_precision = true;
  s[k++].precision = 18; /* scale absent: 0 */
  s[k++] = leaf("flba", R, CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY);
  s[k++] = lt(leaf("geo", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_LT_GEOMETRY);
  s[k] = lt(leaf("future", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_LT_FUTURE);
  s[k].logical.future_id = 200;    /* written as member 200, read back FUTURE */
  s[k] = ct(s[k], CHV_PQ_CT_UTF8); /* ... which falls back to UTF8 */
  k++;
  s[0].num_children = k - 1;
#undef INTL
  expect_map(s, k,
             "struct<i8:tinyint,i16:smallint,i32:int,u8:smallint,u16:int,"
             "u32:bigint,u64:decimal(20,0),s64:bigint,c_u8:smallint,c_u32:"
             "bigint,c_i16:smallint,c_u64:decimal(20,0),date:date,time_ms:"
             "bigint,time_us:bigint,ts_ns:timestamp,ts_ms:timestamp,i96:"
             "timestamp,json:string,enum:string,bson:binary,uuid:string,nul:"
             "int,dec64:decimal(18,0),flba:binary,geo:binary,future:string>",
             __LINE__);

  /* Conversions. */
  struct chv_pq_file_meta m = {0};
  m.nschema = k;
  m.schema = s;
  m.version = 1;
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_error err;
  CHV_REQUIRE_OK(chv_pq_file_meta_write(&m, &b, &err), &err);
  struct chv_pq_file_meta *r;
  CHV_REQUIRE_OK(chv_pq_file_meta_decode(b.data, b.len, -1, "s", &r, &err),
                 &err);
  struct chv_pq_hive_schema *h;
  CHV_REQUIRE_OK(chv_pq_hive_schema_open(r, "s", &h, &err), &err);
  static const enum chv_pq_conv want[] = {CHV_PQ_CONV_INT8,
                                          CHV_PQ_CONV_INT16,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_UINT8,
                                          CHV_PQ_CONV_UINT16,
                                          CHV_PQ_CONV_UINT32,
                                          CHV_PQ_CONV_UINT64,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_UINT8,
                                          CHV_PQ_CONV_UINT32,
                                          CHV_PQ_CONV_INT16,
                                          CHV_PQ_CONV_UINT64,
                                          CHV_PQ_CONV_DATE,
                                          CHV_PQ_CONV_WIDEN,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_TIMESTAMP_NANOS,
                                          CHV_PQ_CONV_TIMESTAMP_MILLIS,
                                          CHV_PQ_CONV_INT96,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_UUID,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_DECIMAL,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_PLAIN,
                                          CHV_PQ_CONV_PLAIN};
  CHV_REQUIRE(h->root.nchildren == (int)CHV_ARRAY_SIZE(want));
  for (int i = 0; i < h->root.nchildren; i++) {
    if (h->root.children[i].conv != want[i])
      fprintf(stderr, "%s: conv %s\n", h->root.children[i].name,
              chv_pq_conv_name(h->root.children[i].conv));
    CHV_CHECK_EQ_INT(h->root.children[i].conv, want[i]);
    CHV_CHECK_EQ_INT(h->root.children[i].leaf, i);
  }
  CHV_CHECK(!h->root.children[24].nullable && h->root.children[0].nullable);
  chv_pq_hive_schema_close(h);
  chv_pq_file_meta_close(r);
  chv_buf_free(&b);

  /* Decimals Hive cannot hold, or that make no sense. */
  struct chv_pq_schema_element d[2] = {
      group("schema", -1, 1),
      lt(leaf("d", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_LT_DECIMAL)};
  d[1].logical.precision = 40;
  d[1].logical.scale = 2;
  EXPECT_FAIL(d, CHV_ENOTSUP,
              "s: column d: DECIMAL(40,2) exceeds Hive's 38 "
              "digits");
  d[1].logical.precision = 4;
  d[1].logical.scale = 5;
  EXPECT_FAIL(d, CHV_ECORRUPT, "invalid DECIMAL(4,5)");
  d[1] = ct(leaf("d", O, CHV_PQ_TYPE_INT32), CHV_PQ_CT_DECIMAL);
  EXPECT_FAIL(d, CHV_ECORRUPT, "invalid DECIMAL(-1,0)");
}

static void test_nested_mapping(void) {
  /* 3-level list, nullable elements. */
  struct chv_pq_schema_element l3[] = {
      group("schema", -1, 1), lt(group("l", O, 1), CHV_PQ_LT_LIST),
      group("list", P, 1), leaf("element", O, CHV_PQ_TYPE_INT32)};
  EXPECT_MAP(l3, "struct<l:array<int>>");
  /* Rule 1: repeated primitive. */
  struct chv_pq_schema_element r1[] = {group("schema", -1, 1),
                                       ct(group("l", O, 1), CHV_PQ_CT_LIST),
                                       leaf("element", P, CHV_PQ_TYPE_INT32)};
  EXPECT_MAP(r1, "struct<l:array<int>>");
  /* Rule 2: repeated group of several fields. */
  struct chv_pq_schema_element r2[] = {
      group("schema", -1, 1), ct(group("l", O, 1), CHV_PQ_CT_LIST),
      group("element", P, 2), leaf("str", R, CHV_PQ_TYPE_BYTE_ARRAY),
      leaf("num", R, CHV_PQ_TYPE_INT32)};
  EXPECT_MAP(r2, "struct<l:array<struct<str:binary,num:int>>>");
  /* Rule 3: repeated group whose one field is repeated. */
  struct chv_pq_schema_element r3[] = {group("schema", -1, 1),
                                       ct(group("l", O, 1), CHV_PQ_CT_LIST),
                                       ct(group("array", P, 1), CHV_PQ_CT_LIST),
                                       leaf("array", P, CHV_PQ_TYPE_INT32)};
  EXPECT_MAP(r3, "struct<l:array<array<int>>>");
  /* Rule 4: a one-field group named array, or <list>_tuple. */
  struct chv_pq_schema_element r4[] = {
      group("schema", -1, 1), ct(group("my_list", O, 1), CHV_PQ_CT_LIST),
      group("array", P, 1),
      ct(leaf("str", R, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_CT_UTF8)};
  EXPECT_MAP(r4, "struct<my_list:array<struct<str:string>>>");
  r4[2].name = "my_list_tuple";
  EXPECT_MAP(r4, "struct<my_list:array<struct<str:string>>>");
  /* Rule 5: otherwise the one field is the element. */
  r4[2].name = "element";
  EXPECT_MAP(r4, "struct<my_list:array<string>>");
  /* A repeated LIST: a list of lists. */
  struct chv_pq_schema_element rl[] = {group("schema", -1, 1),
                                       ct(group("l", P, 1), CHV_PQ_CT_LIST),
                                       leaf("e", P, CHV_PQ_TYPE_INT64)};
  EXPECT_MAP(rl, "struct<l:array<array<bigint>>>");
  /* Bad LIST shapes. */
  struct chv_pq_schema_element bl[] = {group("schema", -1, 1),
                                       ct(group("l", O, 1), CHV_PQ_CT_LIST),
                                       leaf("e", O, CHV_PQ_TYPE_INT64)};
  EXPECT_FAIL(bl, CHV_ECORRUPT,
              "s: column l: a LIST must hold exactly one repeated field");

  /* Maps: MAP, MAP_KEY_VALUE outside a MAP, misnamed fields, a value that
  ** is a list, a key that is optional. */
  struct chv_pq_schema_element m1[] = {
      group("schema", -1, 2),
      lt(group("m", O, 1), CHV_PQ_LT_MAP),
      group("key_value", P, 2),
      ct(leaf("key", R, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_CT_UTF8),
      leaf("value", O, CHV_PQ_TYPE_INT32),
      ct(group("m2", R, 1), CHV_PQ_CT_MAP_KEY_VALUE),
      group("map", P, 2),
      ct(leaf("str", O, CHV_PQ_TYPE_BYTE_ARRAY), CHV_PQ_CT_UTF8),
      ct(group("num", R, 1), CHV_PQ_CT_LIST),
      leaf("n", P, CHV_PQ_TYPE_DOUBLE)};
  EXPECT_MAP(m1, "struct<m:map<string,int>,m2:map<string,array<double>>>");
  /* A key_value group with only a key: the set of keys. */
  struct chv_pq_schema_element m2[] = {
      group("schema", -1, 1), ct(group("m", O, 1), CHV_PQ_CT_MAP),
      group("key_value", P, 1), leaf("key", R, CHV_PQ_TYPE_INT32)};
  EXPECT_MAP(m2, "struct<m:array<int>>");
  /* A MAP_KEY_VALUE group that is the pair itself (legacy) is a struct. */
  struct chv_pq_schema_element m3[] = {
      group("schema", -1, 1), ct(group("kv", O, 2), CHV_PQ_CT_MAP_KEY_VALUE),
      leaf("key", R, CHV_PQ_TYPE_INT32), leaf("value", R, CHV_PQ_TYPE_INT32)};
  EXPECT_MAP(m3, "struct<kv:struct<key:int,value:int>>");
  /* Keys Hive cannot hold; bad MAP shapes. */
  struct chv_pq_schema_element m4[] = {
      group("schema", -1, 1),          ct(group("m", O, 1), CHV_PQ_CT_MAP),
      group("key_value", P, 2),        group("key", R, 1),
      leaf("a", R, CHV_PQ_TYPE_INT32), leaf("value", R, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(m4, CHV_ENOTSUP,
              "s: column m.key_value.key: a map key must be "
              "of a primitive type");
  struct chv_pq_schema_element m5[] = {
      group("schema", -1, 1),          ct(group("m", O, 1), CHV_PQ_CT_MAP),
      group("key_value", P, 3),        leaf("k", R, CHV_PQ_TYPE_INT32),
      leaf("v", R, CHV_PQ_TYPE_INT32), leaf("w", R, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(m5, CHV_ECORRUPT, "has 3 fields (1 or 2 expected)");
  struct chv_pq_schema_element m6[] = {group("schema", -1, 1),
                                       lt(group("m", O, 1), CHV_PQ_LT_MAP),
                                       leaf("k", R, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(m6, CHV_ECORRUPT, "a MAP must hold exactly one repeated");

  /* Structs to any depth, repeated groups without annotation. */
  struct chv_pq_schema_element s1[] = {group("schema", -1, 2),
                                       group("a", O, 1),
                                       group("b", R, 1),
                                       group("c", O, 2),
                                       leaf("x", P, CHV_PQ_TYPE_BOOLEAN),
                                       group("y", P, 1),
                                       leaf("z", O, CHV_PQ_TYPE_FLOAT),
                                       group("empty", O, 0)};
  EXPECT_MAP(s1, "struct<a:struct<b:struct<c:struct<x:array<boolean>,y:"
                 "array<struct<z:float>>>>>,empty:struct<>>");
  /* Duplicate names (Hive ignores case). */
  struct chv_pq_schema_element s2[] = {group("schema", -1, 2),
                                       leaf("A", O, CHV_PQ_TYPE_INT32),
                                       leaf("a", O, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(s2, CHV_ENOTSUP,
              "s: column a: another field of its group has "
              "the same name");
}

static void test_schema_errors(void) {
  /* num_children past the end; elements left over; no repetition; FLBA
  ** without length; a leaf root; VECTOR repetition. */
  struct chv_pq_schema_element e1[] = {group("schema", -1, 3),
                                       leaf("a", O, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(e1, CHV_ECORRUPT,
              "s: schema element 0 ('schema'): declares 3 "
              "children but only 1 elements follow");
  /* The root's second child is missing: its first one took the rest. */
  struct chv_pq_schema_element e1b[] = {group("schema", -1, 2),
                                        group("g", O, 1),
                                        leaf("a", O, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(e1b, CHV_ECORRUPT,
              "s: schema element 0 ('schema'): declares 2 "
              "children but the schema ends after 1");
  struct chv_pq_schema_element e2[] = {group("schema", -1, 1),
                                       leaf("a", O, CHV_PQ_TYPE_INT32),
                                       leaf("b", O, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(e2, CHV_ECORRUPT,
              "the schema lists 3 elements but its tree "
              "holds 2");
  struct chv_pq_schema_element e3[] = {group("schema", -1, 1),
                                       leaf("a", O, CHV_PQ_TYPE_INT32)};
  e3[1].has_repetition = false;
  EXPECT_FAIL(e3, CHV_ECORRUPT, "schema element 1 ('a'): no repetition_type");
  e3[1] = leaf("a", O, CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY);
  e3[1].type_length = 0;
  EXPECT_FAIL(e3, CHV_ECORRUPT, "needs a positive type_length");
  e3[1] = leaf("a", CHV_PQ_REP_VECTOR, CHV_PQ_TYPE_INT32);
  EXPECT_FAIL(e3, CHV_ENOTSUP, "VECTOR repetition is not supported");
  e3[1] = leaf("a", O, 8);
  EXPECT_FAIL(e3, CHV_ECORRUPT, "invalid physical type 8");
  e3[1] = leaf("a", 7, CHV_PQ_TYPE_INT32);
  EXPECT_FAIL(e3, CHV_ECORRUPT, "invalid repetition 7");
  struct chv_pq_schema_element e4[] = {leaf("root", O, CHV_PQ_TYPE_INT32)};
  EXPECT_FAIL(e4, CHV_ECORRUPT, "the schema root is not a group");
  struct chv_pq_schema_element e5[] = {group("schema", -1, -2)};
  EXPECT_FAIL(e5, CHV_ECORRUPT, "num_children -2 is negative");

  /* A schema 70 groups deep. */
  struct chv_pq_schema_element deep[72];
  deep[0] = group("schema", -1, 1);
  for (int i = 1; i < 71; i++)
    deep[i] = group("g", O, 1);
  deep[71] = leaf("x", O, CHV_PQ_TYPE_INT32);
  EXPECT_FAIL(deep, CHV_ECORRUPT, "nests deeper than 64");
  /* 63 deep is fine. */
  struct chv_pq_schema_element ok[65];
  ok[0] = group("schema", -1, 1);
  for (int i = 1; i < 64; i++)
    ok[i] = group("g", O, 1);
  ok[64] = leaf("x", O, CHV_PQ_TYPE_INT32);
  struct chv_error err;
  char *s;
  CHV_CHECK_OK(map_schema(ok, 65, &s, &err), &err);
  chv_free(s);

  /* Levels of the tree. */
  struct chv_pq_schema_element lv[] = {group("schema", -1, 1), group("a", O, 1),
                                       group("b", P, 1), group("c", R, 1),
                                       leaf("d", P, CHV_PQ_TYPE_INT32)};
  struct chv_pq_file_meta m = {0};
  m.nschema = 5;
  m.schema = lv;
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_file_meta_write(&m, &b, &err), &err);
  struct chv_pq_file_meta *r;
  CHV_REQUIRE_OK(chv_pq_file_meta_decode(b.data, b.len, -1, "s", &r, &err),
                 &err);
  CHV_REQUIRE(r->nleaves == 1);
  const struct chv_pq_node *d = r->leaves[0];
  CHV_CHECK(d->def_level == 3 && d->rep_level == 2 && d->depth == 4);
  CHV_CHECK(d->parent->def_level == 2 && d->parent->rep_level == 1);
  struct chv_buf p;
  chv_buf_init(&p);
  chv_pq_node_path(d, &p);
  CHV_CHECK_STREQ(p.data, "a.b.c.d");
  CHV_CHECK(r->root->leaf_begin == 0 && r->root->leaf_end == 1);
  chv_buf_free(&p);
  chv_buf_free(&b);
  chv_pq_file_meta_close(r);
}

CHV_TEST_MAIN("pq_meta", test_every_footer, test_hive_types, test_field_levels,
              test_footer_details, test_page_headers, test_page_index,
              test_bad_data, test_file_errors, test_truncated_and_flipped,
              test_oom, test_rewrite_fixtures, test_write_read_full,
              test_page_header_round_trip, test_primitive_mapping,
              test_nested_mapping, test_schema_errors)
