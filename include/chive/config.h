/*
** config: the option registry of chive and the layered configuration built
** on it.
**
** The registry (options.c) is one static table holding every option of
** Flink's Hive connector that chive honours: the job options of HiveOptions,
** the table options, the file-system connector options the Hive sink and
** source reuse, the catalog, module and HiveServer2 endpoint options, the Hive
** configuration keys the connector reads and the format and SerDe table
** properties.  Each entry carries Flink's key, type, default and a
** description, plus chive's validation rule (range, allowed values).
**
** Values are parsed as Flink parses them: booleans, integers in a range,
** durations ("5 min", "30s", a bare number is milliseconds), memory sizes
** ("128mb", "4 kb", a bare number is bytes), enums case-insensitively in the
** option's spelling and in the Java constant spelling ("partition-time" and
** "PARTITION_TIME"), and separator lists ("metastore,success-file").  An
** invalid value is rejected with a message naming the key, the value and
** what is allowed.
**
** A chv_config (config.c) stacks three layers of raw key/value text over the
** registry's defaults; a lookup takes the first layer holding the key (or
** one of its deprecated aliases):
**
**     table property  >  session value  >  configuration file  >  default
**
** INTERFACE
**   chv_option_count(), chv_option_at()  walk the registry in table order
**   chv_option_find()       an option by key or deprecated alias
**   chv_option_suggest()    the registered key closest to a misspelt one
**   chv_option_parse()      validate and parse a value for an option
**   chv_option_rule()       the sentence stating what an option accepts
**   chv_opt_value_format()  print a parsed value ("300000 ms (5 min)")
**   chv_duration_parse(), chv_memory_parse()  the two unit grammars
**   chv_config_open() ... chv_config_close()   the layered configuration
**   chv_config_set(), chv_config_load_file()   fill a layer
**   chv_config_get() and the typed getters     look a value up
**   chv_options_render_*()  the registry as a text table, JSON or Markdown
**
** Thread safety: the registry is immutable and may be read from any thread.
** A chv_config may be read by several threads at once but must not be read
** while another thread modifies it.
*/
#ifndef CHIVE_CONFIG_H
#define CHIVE_CONFIG_H

#include "chive/common.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- option types ------------------------------------------------------ */

/* How chive parses a value: name, the type name printed for users. */
#define CHV_OPT_TYPE_MAP(X)                                                    \
  X(BOOL, "Boolean")                                                           \
  X(INT, "Integer")                                                            \
  X(LONG, "Long")                                                              \
  X(DOUBLE, "Double")                                                          \
  X(STRING, "String")                                                          \
  X(DURATION, "Duration")                                                      \
  X(MEMORY, "MemorySize")                                                      \
  X(ENUM, "Enum")                                                              \
  X(LIST, "List<String>")

enum chv_opt_type {
#define CHV_X_(name, text) CHV_OPT_##name,
  CHV_OPT_TYPE_MAP(CHV_X_)
#undef CHV_X_
};

/* "Boolean", "Duration", ...; never NULL. */
CHV_API const char *chv_opt_type_name(enum chv_opt_type type);

/* ---- scopes ------------------------------------------------------------ */

/* Where an option is set: name, short name, what the scope means. */
#define CHV_OPT_SCOPE_MAP(X)                                                   \
  X(JOB, "job", "job/session option, read from the session configuration")     \
  X(TABLE, "table", "table option, a TBLPROPERTY or an OPTIONS hint")          \
  X(CATALOG, "catalog", "option of CREATE CATALOG ... WITH ('type'='hive')")   \
  X(MODULE, "module", "option of LOAD MODULE hive")                            \
  X(ENDPOINT, "endpoint", "option of the HiveServer2 endpoint of the gateway") \
  X(HIVE, "hive",                                                              \
    "Hive configuration key (hive-site.xml) the connector reads")              \
  X(FORMAT, "format", "file format or SerDe table property")

enum chv_opt_scope_index {
#define CHV_X_(name, text, doc) CHV_SCOPE_INDEX_##name,
  CHV_OPT_SCOPE_MAP(CHV_X_)
#undef CHV_X_
      CHV_SCOPE_INDEX_COUNT
};

/* Scope bits; an option may belong to several scopes. */
enum chv_opt_scope {
#define CHV_X_(name, text, doc) CHV_SCOPE_##name = 1u << CHV_SCOPE_INDEX_##name,
  CHV_OPT_SCOPE_MAP(CHV_X_)
#undef CHV_X_
};

/* Short name ("job") of one scope bit, or NULL for an unknown bit. */
CHV_API const char *chv_opt_scope_name(unsigned scope_bit);
/* The scope bit named by text ("job", "TABLE"), or 0. */
CHV_API unsigned chv_opt_scope_parse(const char *text);

/* ---- sources ----------------------------------------------------------- */

/* Where an option is declared upstream: name, the class or file. */
#define CHV_OPT_SOURCE_MAP(X)                                                  \
  X(HIVE_OPTIONS, "HiveOptions")                                               \
  X(TABLE_CONFIG, "TableConfigOptions")                                        \
  X(FS_OPTIONS, "FileSystemConnectorOptions")                                  \
  X(CATALOG_OPTIONS, "HiveCatalogFactoryOptions")                              \
  X(FACTORY_UTIL, "FactoryUtil")                                               \
  X(HIVE_CONF_OPTIONS, "HiveConfOptions")                                      \
  X(ENDPOINT_OPTIONS, "HiveServer2EndpointConfigOptions")                      \
  X(HIVE_CONF, "HiveConf")                                                     \
  X(HIVE_TABLE, "hive_metastoreConstants")                                     \
  X(PARQUET, "parquet-hadoop ParquetOutputFormat")                             \
  X(ORC, "ORC OrcConf")                                                        \
  X(SERDE, "Hive LazySimpleSerDe")                                            \
  X(CORE_OPTIONS, "CoreOptions")                                               \
  X(CHIVE, "chive")                                                            \
  X(OPTIMIZER_CONFIG, "OptimizerConfigOptions")

enum chv_opt_source {
#define CHV_X_(name, text) CHV_SRC_##name,
  CHV_OPT_SOURCE_MAP(CHV_X_)
#undef CHV_X_
};

/* "HiveOptions", ...; never NULL. */
CHV_API const char *chv_opt_source_name(enum chv_opt_source source);

/* ---- the registry ------------------------------------------------------ */

/* Option flags. */
enum {
  /* Flink marks the option deprecated; description names the replacement. */
  CHV_OPTF_DEPRECATED = 1u << 0,
  /* The default is the number of online CPUs, computed at lookup. */
  CHV_OPTF_DEFAULT_CPUS = 1u << 1,
  /* The key is matched case-insensitively (Hive's 'TRANSACTIONAL'). */
  CHV_OPTF_KEY_ICASE = 1u << 2,
  /* A STRING option that must not be empty. */
  CHV_OPTF_NONEMPTY = 1u << 3,
  /* A STRING option naming one file inside a folder: no '/' or '\\', and
  ** neither '.' nor '..'. */
  CHV_OPTF_FILE_NAME = 1u << 4,
  /* The aliases are another spelling the option's owner still writes (Hive's
  ** 'colelction.delim'), not deprecated keys: using one is no warning. */
  CHV_OPTF_ALIAS_QUIET = 1u << 5,
};

/* One registered option.  All pointers are static strings. */
struct chv_option {
  const char *key;            /* Flink's current key */
  enum chv_opt_type type;     /* how chive parses the value */
  const char *flink_type;     /* Flink's declared type when it differs from
                              ** type's name (a String Flink checks against a
                              ** fixed set is an ENUM here), else NULL */
  const char *default_text;   /* Flink's default as text; NULL: none */
  const char *default_note;   /* what applies when unset and the default
                              ** depends on context, else NULL */
  const char *description;    /* full sentences */
  int64_t min, max;           /* INT/LONG value, DURATION ms, MEMORY bytes;
                              ** both 0: the whole range of the type */
  double dmin, dmax;          /* DOUBLE range; both 0: any finite number */
  const char *const *values;  /* ENUM: allowed spellings; LIST: allowed
                              ** elements (NULL: any); NULL-terminated */
  const char *const *aliases; /* deprecated keys, NULL-terminated, or NULL */
  char separator;             /* LIST: element separator */
  unsigned scope;             /* CHV_SCOPE_* bits */
  enum chv_opt_source source; /* upstream declaration */
  unsigned flags;             /* CHV_OPTF_* */
  /* A value chive cannot honour yet and refuses with CHV_ENOTSUP: for a BOOL
  ** 'true', for a STRING or LIST any non-blank value; refused says why,
  ** following "<key>=<value> " in the message.  NULL: none. */
  const char *refused;
  /* A value chive accepts but does not honour as Flink would: when a value
  ** equal to warn_value is set, the warning text is given (see
  ** chv_option_warning()).  NULL: none. */
  const char *warn_value;
  const char *warning;
};

/* Number of registered options and the i-th one (i < count). */
CHV_API size_t chv_option_count(void);
CHV_API const struct chv_option *chv_option_at(size_t i);

/* The option whose key or deprecated alias is key, or NULL. */
CHV_API const struct chv_option *chv_option_find(const char *key);

/* The registered key or alias closest to key by edit distance, or NULL when
** nothing is close enough to be a likely misspelling.  Borrowed static. */
CHV_API const char *chv_option_suggest(const char *key);

/* Check that key = value may be stored anywhere (a session SET, a
** configuration file line, a table property): a registered key (or alias)
** must parse (chv_option_parse()); an unknown key in a family the registry
** owns (chv_option_is_reserved_key()) is refused with CHV_ENOENT, naming the
** key and the closest registered one; other unknown keys are accepted.
** value NULL is the empty string. */
CHV_API int chv_option_check(const char *key, const char *value,
                             struct chv_error *err);

/* Whether key = value deserves a warning although it is accepted: a
** deprecated key (the alias of a current one), or a value chive takes but
** does not honour as Flink would (the option's warn_value).  Writes the
** sentence into buf (size n, NUL-terminated, truncated) and returns true;
** false when there is nothing to say (buf untouched).  A value that does not
** parse gets no warning. */
CHV_API bool chv_option_warning(const char *key, const char *value, char *buf,
                                size_t n);

/* True when key belongs to a key family the registry owns (for example
** "table.exec.hive." or "streaming-source."), so an unknown key there is a
** misspelling rather than some other component's option. */
CHV_API bool chv_option_is_reserved_key(const char *key);

/* ---- parsed values ----------------------------------------------------- */

/* A parsed value.  Init with chv_opt_value_init, free with
** chv_opt_value_free. */
struct chv_opt_value {
  enum chv_opt_type type;
  union {
    bool b;         /* BOOL */
    int64_t i;      /* INT, LONG */
    double d;       /* DOUBLE */
    int64_t ms;     /* DURATION, in milliseconds */
    int64_t bytes;  /* MEMORY */
    int enum_index; /* ENUM: index into option->values */
  };
  char *text;  /* owned: the trimmed input, or the canonical spelling of an
               ** ENUM value */
  char **list; /* owned: LIST elements, trimmed */
  int nlist;   /* number of LIST elements */
};

CHV_API void chv_opt_value_init(struct chv_opt_value *v);
/* Release what v owns and zero it. */
CHV_API void chv_opt_value_free(struct chv_opt_value *v);

/* Validate text for opt and parse it into *out (initialised by the caller;
** written only on success).  Errors: CHV_EINVAL for a malformed value,
** CHV_ERANGE for one out of range, each naming the key, the value and the
** rule; CHV_ENOMEM. */
CHV_API int chv_option_parse(const struct chv_option *opt, const char *text,
                             struct chv_opt_value *out, struct chv_error *err);

/* Write into buf (size n, NUL-terminated, truncated) what opt accepts, as a
** phrase starting "expected ...". */
CHV_API void chv_option_rule(const struct chv_option *opt, char *buf, size_t n);

/* Append v printed for a person to out: "true", "300000 ms (5 min)",
** "134217728 bytes (128 mb)", "[metastore, success-file]". */
CHV_API int chv_opt_value_format(const struct chv_opt_value *v,
                                 struct chv_buf *out);

/* Flink's duration grammar: digits, optional blanks, optional unit (ns, us,
** ms, s, min, h, d and their long forms, case-insensitive); no unit means
** milliseconds.  Sub-millisecond remainders are truncated like Java's
** Duration.toMillis().  CHV_EINVAL/CHV_ERANGE with a message saying why. */
CHV_API int chv_duration_parse(const char *text, int64_t *ms,
                               struct chv_error *err);

/* Flink's MemorySize grammar: digits, optional blanks, optional unit (b, k,
** kb, m, mb, g, gb, t, tb and the long forms, case-insensitive; binary
** multiples); no unit means bytes. */
CHV_API int chv_memory_parse(const char *text, int64_t *bytes,
                             struct chv_error *err);

/* Append a duration or memory size in its largest exact unit ("5 min",
** "128 mb"). */
CHV_API int chv_duration_format(int64_t ms, struct chv_buf *out);
CHV_API int chv_memory_format(int64_t bytes, struct chv_buf *out);

/* ---- layered configuration -------------------------------------------- */

typedef struct chv_config chv_config;

/* Layers from the highest precedence down.  DEFAULT is the registry and is
** never set. */
enum chv_config_layer {
  CHV_LAYER_TABLE,
  CHV_LAYER_SESSION,
  CHV_LAYER_FILE,
  CHV_LAYER_DEFAULT
};

/* Name of a layer ("table property", "session", ...); never NULL. */
CHV_API const char *chv_config_layer_name(enum chv_config_layer layer);

/* out: close with chv_config_close().  CHV_ENOMEM. */
CHV_API int chv_config_open(chv_config **out, struct chv_error *err);
/* Release everything; NULL is a no-op. */
CHV_API void chv_config_close(chv_config *cfg);

/* Set key to value in a layer (both copied), checked first by
** chv_option_check(): a registered key (or alias) must parse, an unknown key
** is kept as is (Hive keeps arbitrary table parameters, other Flink
** components have options of their own) unless it lies in a family the
** registry owns, where it is an error naming the key and the closest
** registered key.  The value's warning, if any, goes to the warning handler.
** Errors: CHV_EINVAL, CHV_ERANGE, CHV_ENOTSUP (a value chive cannot honour
** yet), CHV_ENOENT (unknown key), CHV_ENOMEM; on error the layer is
** unchanged. */
CHV_API int chv_config_set(chv_config *cfg, enum chv_config_layer layer,
                           const char *key, const char *value,
                           struct chv_error *err);

/* Receives the warnings of a configuration, one sentence each (borrowed for
** the call). */
typedef void chv_config_warn_fn(void *ctx, const char *msg);

/* Where the warnings of cfg go: chv_config_set(), chv_config_load_file()
** and chv_config_warn() send the chv_option_warning() of each value they
** accept, each option's warning once per configuration.  fn NULL: none are
** sent (the default). */
CHV_API void chv_config_set_warning_handler(chv_config *cfg,
                                            chv_config_warn_fn *fn, void *ctx);

/* Send the warning about key = value, if any and not sent before, to cfg's
** handler: for values stored elsewhere, such as table properties.  where
** (NULL: nothing) prefixes the message as "<where>: ". */
CHV_API void chv_config_warn(chv_config *cfg, const char *key,
                             const char *value, const char *where);

/* Remove key (exactly as set) from a layer; CHV_ENOENT if absent. */
CHV_API int chv_config_unset(chv_config *cfg, enum chv_config_layer layer,
                             const char *key);

/* Drop every value of a layer (for example before a new table). */
CHV_API void chv_config_clear(chv_config *cfg, enum chv_config_layer layer);

/* Read a Flink-style configuration file into the file layer: "key: value"
** lines, '#' comments, blank lines, nested "section:" blocks whose indented
** keys are joined with '.', single- or double-quoted values and [a, b] flow
** lists.  Errors name the file and line ("conf.yaml:7: ...").  All or
** nothing: on error the file layer is unchanged. */
CHV_API int chv_config_load_file(chv_config *cfg, const char *path,
                                 struct chv_error *err);

/* The raw text of key in the highest layer holding it (or an alias of it),
** and that layer; NULL (layer DEFAULT) when no layer holds it.  Borrowed:
** valid until the layer changes. */
CHV_API const char *chv_config_lookup(const chv_config *cfg, const char *key,
                                      enum chv_config_layer *layer);

/* True when some layer holds key (or an alias). */
CHV_API bool chv_config_is_set(const chv_config *cfg, const char *key);

/* Look key up through the layers and parse it.  *out (initialised by the
** caller) receives the value; an unregistered key held by a layer comes back
** as a STRING.  Errors: CHV_ENOENT when no layer holds the key and it has no
** default (or is not registered), CHV_ENOMEM. */
CHV_API int chv_config_get(const chv_config *cfg, const char *key,
                           struct chv_opt_value *out, struct chv_error *err);

/* Typed getters.  CHV_ETYPE when the option is of another type,
** CHV_ENOENT as for chv_config_get.  get_int serves INT and LONG options;
** get_string serves STRING and ENUM options and returns borrowed text
** valid until the layer changes. */
CHV_API int chv_config_get_bool(const chv_config *cfg, const char *key,
                                bool *out, struct chv_error *err);
CHV_API int chv_config_get_int(const chv_config *cfg, const char *key,
                               int64_t *out, struct chv_error *err);
CHV_API int chv_config_get_double(const chv_config *cfg, const char *key,
                                  double *out, struct chv_error *err);
CHV_API int chv_config_get_duration_ms(const chv_config *cfg, const char *key,
                                       int64_t *out, struct chv_error *err);
CHV_API int chv_config_get_memory(const chv_config *cfg, const char *key,
                                  int64_t *out, struct chv_error *err);
CHV_API int chv_config_get_enum(const chv_config *cfg, const char *key,
                                int *out, struct chv_error *err);
CHV_API int chv_config_get_string(const chv_config *cfg, const char *key,
                                  const char **out, struct chv_error *err);

/* ---- rendering the registry ------------------------------------------- */

/* Append the registry as an aligned text table (options whose scope meets
** scope_mask; 0 means all), as a JSON array of objects, or as the Markdown
** of docs/options.md.  CHV_ENOMEM. */
CHV_API int chv_options_render_text(struct chv_buf *out, unsigned scope_mask);
CHV_API int chv_options_render_json(struct chv_buf *out);
CHV_API int chv_options_render_markdown(struct chv_buf *out);

/* Append s as a JSON string literal, quotes included. */
CHV_API int chv_json_put_string(struct chv_buf *out, const char *s);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_CONFIG_H */
