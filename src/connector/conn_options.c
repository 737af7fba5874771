/*
** Options as the connector reads them for one table: table property >
** session > configuration file > default (the layering of src/config, with
** the table layer taken from the table's parameters).  A statement's
** OPTIONS hints are put over the table's parameters first
** (conn_table_overlay), so they win over its properties.
*/
#include "connector/connector_int.h"

/* The table property named name, compared as opt compares keys. */
static const char *table_param(const struct chv_table *t,
                               const struct chv_option *opt, const char *name) {
  if (!(opt->flags & CHV_OPTF_KEY_ICASE))
    return chv_kv_get(t->params, t->nparams, name);
  for (int i = 0; i < t->nparams; i++)
    if (chv_str_ieq(t->params[i].key, name)) return t->params[i].value;
  return NULL;
}

int conn_table_option(const struct chv_table *t, const chv_config *cfg,
                      const char *key, struct chv_opt_value *out,
                      struct chv_error *err) {
  const struct chv_option *opt = chv_option_find(key);
  if (opt == NULL)
    return chv_error_set(err, CHV_EINTERNAL, "option '%s' is not registered",
                         key);
  /* A table property under the key or one of its deprecated aliases. */
  const char *text = table_param(t, opt, opt->key);
  for (int i = 0; text == NULL && opt->aliases && opt->aliases[i]; i++)
    text = table_param(t, opt, opt->aliases[i]);
  if (text != NULL) {
    int rc = chv_option_parse(opt, text, out, err);
    if (rc != CHV_OK)
      chv_error_wrap(err, "table property of %s.%s", t->db, t->name);
    return rc;
  }
  /* The configuration computes defaults that depend on the machine (the
  ** CPUs), also without layers. */
  if (cfg != NULL || (opt->flags & CHV_OPTF_DEFAULT_CPUS))
    return chv_config_get(cfg, opt->key, out, err);
  if (opt->default_text == NULL)
    return chv_error_set(err, CHV_ENOENT, "option '%s' has no value", key);
  return chv_option_parse(opt, opt->default_text, out, err);
}

/* True when property name is opt's key or one of its aliases. */
static bool names_option(const struct chv_option *opt, const char *name) {
  bool icase = opt->flags & CHV_OPTF_KEY_ICASE;
  if (icase ? chv_str_ieq(name, opt->key) : !strcmp(name, opt->key))
    return true;
  for (int i = 0; opt->aliases && opt->aliases[i]; i++)
    if (icase ? chv_str_ieq(name, opt->aliases[i])
              : !strcmp(name, opt->aliases[i]))
      return true;
  return false;
}

int conn_table_overlay(struct chv_table *t, const struct chv_kv *kv, int n,
                       struct chv_error *err) {
  for (int i = 0; i < n; i++) {
    const struct chv_option *opt = chv_option_find(kv[i].key);
    const char *key = opt ? opt->key : kv[i].key;
    int k = 0;
    for (int j = 0; j < t->nparams; j++) { /* drop what it replaces */
      const char *name = t->params[j].key;
      if (opt ? names_option(opt, name) : !strcmp(name, key)) {
        chv_free(t->params[j].key);
        chv_free(t->params[j].value);
      } else {
        t->params[k++] = t->params[j];
      }
    }
    t->nparams = k;
    struct chv_kv *np =
        chv_realloc(t->params, sizeof *np * (size_t)(t->nparams + 1));
    if (np == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    t->params = np;
    char *nk = chv_strdup(key), *nv = chv_strdup(kv[i].value ? kv[i].value
                                                             : "");
    if (nk == NULL || nv == NULL) {
      chv_free(nk);
      chv_free(nv);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    t->params[t->nparams++] = (struct chv_kv){nk, nv};
  }
  return CHV_OK;
}
