/*
** hive_site: the properties of a Hadoop-style configuration file, as
** hive-site.xml holds them:
**
**   <configuration>
**     <property><name>hive.metastore.warehouse.dir</name>
**               <value>/data/warehouse</value></property>
**   </configuration>
**
** read with expat.  Elements other than name and value inside a property
** (description, final) are ignored; a property without a name is an error;
** a later property of the same name replaces an earlier one, as in Hadoop.
** ${...} variables are not expanded.
**
** INTERFACE
**   chv_hive_site_read()   properties of one file
*/
#include "catalog/catalog.h"
#include "fs/fs.h"

#include <expat.h>
#include <stdio.h>

/* Where the parser is: depth-tracked state of the element stack. */
struct site_parser {
  XML_Parser xp;
  const char *path;
  struct chv_error *err;
  int rc;
  int depth;         /* element nesting */
  bool in_property;  /* inside <property> at depth 2 */
  int field;         /* 0 none, 1 collecting <name>, 2 collecting <value> */
  bool has_name;
  bool has_value;
  int prop_line;     /* line of the current <property> */
  struct chv_buf name;
  struct chv_buf value;
  struct chv_kv *props;
  int nprops;
  int cap;
};

static void fail(struct site_parser *p, int code, const char *what) {
  if (p->rc) return;
  p->rc = chv_error_set(p->err, code, "%s:%lu: %s", p->path,
                        (unsigned long)XML_GetCurrentLineNumber(p->xp), what);
  XML_StopParser(p->xp, XML_FALSE);
}

static void XMLCALL on_start(void *ud, const XML_Char *el,
                             const XML_Char **attrs) {
  struct site_parser *p = ud;
  p->depth++;
  if (p->depth == 1) {
    if (strcmp(el, "configuration") != 0)
      fail(p, CHV_ECORRUPT, "the root element must be <configuration>");
    return;
  }
  if (p->depth == 2 && strcmp(el, "property") == 0) {
    p->in_property = true;
    p->has_name = p->has_value = false;
    p->prop_line = (int)XML_GetCurrentLineNumber(p->xp);
    chv_buf_reset(&p->name);
    chv_buf_reset(&p->value);
    return;
  }
  if (p->depth == 3 && p->in_property) {
    if (strcmp(el, "name") == 0) {
      p->field = 1;
      p->has_name = true;
    } else if (strcmp(el, "value") == 0) {
      p->field = 2;
      p->has_value = true;
    }
  }
}

static int add_prop(struct site_parser *p) {
  char *key = chv_strdup(chv_str_trim(p->name.data));
  char *val = chv_strdup(p->has_value && p->value.data ? p->value.data : "");
  if (key == NULL || val == NULL) goto out_nomem;
  for (int i = 0; i < p->nprops; i++) {
    if (strcmp(p->props[i].key, key) == 0) {
      chv_free(p->props[i].value);
      p->props[i].value = val;
      chv_free(key);
      return CHV_OK;
    }
  }
  if (p->nprops == p->cap) {
    int cap = p->cap ? p->cap * 2 : 16;
    struct chv_kv *v = chv_realloc(p->props, sizeof *v * (size_t)cap);
    if (v == NULL) goto out_nomem;
    p->props = v;
    p->cap = cap;
  }
  p->props[p->nprops].key = key;
  p->props[p->nprops].value = val;
  p->nprops++;
  return CHV_OK;
out_nomem:
  chv_free(key);
  chv_free(val);
  return CHV_ENOMEM;
}

static void XMLCALL on_end(void *ud, const XML_Char *el) {
  struct site_parser *p = ud;
  if (p->depth == 3) p->field = 0;
  if (p->depth == 2 && p->in_property) {
    p->in_property = false;
    if (!p->has_name || chv_buf_reserve(&p->name, 0) ||
        *chv_str_trim(p->name.data) == '\0') {
      char msg[96];
      snprintf(msg, sizeof msg, "the <property> of line %d has no <name>",
               p->prop_line);
      fail(p, CHV_ECORRUPT, msg);
    } else if (add_prop(p) != CHV_OK) {
      fail(p, CHV_ENOMEM, "out of memory");
    }
  }
  p->depth--;
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len) {
  struct site_parser *p = ud;
  struct chv_buf *b = p->field == 1 ? &p->name : p->field == 2 ? &p->value
                                                                : NULL;
  if (b && chv_buf_append(b, s, (size_t)len) != CHV_OK)
    fail(p, CHV_ENOMEM, "out of memory");
}

int chv_hive_site_read(const char *path, struct chv_kv **props, int *nprops,
                       struct chv_error *err) {
  char *data;
  size_t len;
  int rc = chv_fs_read_all(chv_fs_local(), path, &data, &len, 16 << 20, err);
  if (rc) return rc;
  struct site_parser p;
  memset(&p, 0, sizeof p);
  p.path = path;
  p.err = err;
  chv_buf_init(&p.name);
  chv_buf_init(&p.value);
  p.xp = XML_ParserCreate(NULL);
  if (p.xp == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "%s: out of memory", path);
    goto out_free_data;
  }
  XML_SetUserData(p.xp, &p);
  XML_SetElementHandler(p.xp, on_start, on_end);
  XML_SetCharacterDataHandler(p.xp, on_text);
  if (len > (size_t)INT32_MAX) len = INT32_MAX;
  if (XML_Parse(p.xp, data, (int)len, XML_TRUE) == XML_STATUS_ERROR &&
      p.rc == CHV_OK) {
    p.rc = chv_error_set(err, CHV_ECORRUPT, "%s:%lu:%lu: malformed XML: %s",
                         path,
                         (unsigned long)XML_GetCurrentLineNumber(p.xp),
                         (unsigned long)XML_GetCurrentColumnNumber(p.xp) + 1,
                         XML_ErrorString(XML_GetErrorCode(p.xp)));
  }
  rc = p.rc;
  XML_ParserFree(p.xp);
  if (rc == CHV_OK) {
    *props = p.props;
    *nprops = p.nprops;
  } else {
    chv_kv_free(p.props, p.nprops);
  }
  chv_buf_free(&p.name);
  chv_buf_free(&p.value);
out_free_data:
  chv_free(data);
  return rc;
}
