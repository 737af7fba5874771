/*
** fs: what every back end shares.  Choosing a back end from a URI, whole-file
** reads with a size limit, atomic whole-file writes (temporary name, fsync,
** rename, fsync of the folder), path joining and the hidden-name rule.
**
** INTERFACE
**   chv_fs_for_path()      "file:///x", "file:/x", "/x", "x" -> local
**   chv_fs_read_all()      a whole file, refused beyond a size limit
**   chv_fs_write_atomic()  replace a file so readers see old or new bytes
**   chv_fs_exists()        stat succeeds
**   chv_path_join()        "a" + "b" -> "a/b" with exactly one '/'
**   chv_path_is_hidden()   names starting with '.' or '_'
**   chv_dirlist_free()     release a listing
*/
#include "fs/fs.h"

#include <ctype.h>
#include <stdio.h>
#include <unistd.h>

void chv_dirlist_free(struct chv_dirlist *l) {
  if (l == NULL) return;
  for (size_t i = 0; i < l->count; i++) chv_free(l->entries[i].path);
  chv_free(l->entries);
  l->entries = NULL;
  l->count = 0;
  l->cap_ = 0;
}

/* Length of a URI scheme at the start of s ("hdfs" of "hdfs://..."), or 0
** when s has none (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":").
** A single letter followed by ':' is not taken as a scheme. */
static size_t scheme_len(const char *s) {
  if (!isalpha((unsigned char)s[0])) return 0;
  size_t i = 1;
  while (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' ||
         s[i] == '.')
    i++;
  if (s[i] != ':' || i < 2) return 0;
  return i;
}

int chv_fs_for_path(const char *uri, const struct chv_fs **fs,
                    const char **inner, struct chv_error *err) {
  if (uri == NULL || uri[0] == '\0')
    return chv_error_set(err, CHV_EINVAL, "empty file-system path");
  size_t n = scheme_len(uri);
  if (n == 0) {
    *fs = chv_fs_local();
    *inner = uri;
    return CHV_OK;
  }
  if (n == 4 && chv_str_nieq(uri, "file", 4)) {
    const char *p = uri + 5;
    if (p[0] == '/' && p[1] == '/') {
      /* file://<authority>/path: only an empty or "localhost" authority */
      const char *auth = p + 2;
      const char *slash = strchr(auth, '/');
      size_t alen = slash ? (size_t)(slash - auth) : strlen(auth);
      if (slash == NULL)
        return chv_error_set(err, CHV_EINVAL, "file URI %s has no path", uri);
      if (alen != 0 && !(alen == 9 && chv_str_nieq(auth, "localhost", 9)))
        return chv_error_set(err, CHV_ENOTSUP,
                             "file URI %s names host '%.*s'; only local "
                             "files (file:///path) are supported",
                             uri, (int)alen, auth);
      p = slash;
    }
    if (p[0] != '/')
      return chv_error_set(err, CHV_EINVAL,
                           "file URI %s must hold an absolute path", uri);
    *fs = chv_fs_local();
    *inner = p;
    return CHV_OK;
  }
  return chv_error_set(err, CHV_ENOTSUP,
                       "cannot access %s: the '%.*s' file-system back end is "
                       "not built yet (only local paths and file:// URIs are "
                       "supported)",
                       uri, (int)n, uri);
}

int chv_fs_read_all(const struct chv_fs *fs, const char *path, char **data,
                    size_t *len, int64_t limit, struct chv_error *err) {
  struct chv_file *f;
  CHV_RETURN_IF_ERR(fs->open(fs, path, &f, err));
  int64_t size = 0;
  int rc = fs->size(f, &size, err);
  if (rc) goto out_close;
  if (limit >= 0 && size > limit) {
    rc = chv_error_set(err, CHV_ERANGE,
                       "read %s: file is %lld bytes, more than the limit of "
                       "%lld bytes",
                       path, (long long)size, (long long)limit);
    goto out_close;
  }
  /* The file may grow while we read; read until end of file or limit + 1. */
  struct chv_buf b;
  chv_buf_init(&b);
  size_t want = (size_t)size + 1;
  for (;;) {
    if (chv_buf_reserve(&b, want) != CHV_OK) {
      rc = chv_error_set(err, CHV_ENOMEM, "read %s: out of memory", path);
      goto out_free_buf;
    }
    size_t got = 0;
    rc = fs->read(f, b.data + b.len, b.cap - b.len - 1, &got, err);
    if (rc) goto out_free_buf;
    if (got == 0) break;
    b.len += got;
    b.data[b.len] = '\0';
    if (limit >= 0 && (int64_t)b.len > limit) {
      rc = chv_error_set(err, CHV_ERANGE,
                         "read %s: file grew beyond the limit of %lld bytes",
                         path, (long long)limit);
      goto out_free_buf;
    }
    want = b.cap;
  }
  if (b.data == NULL && chv_buf_reserve(&b, 1) != CHV_OK) {
    rc = chv_error_set(err, CHV_ENOMEM, "read %s: out of memory", path);
    goto out_free_buf;
  }
  b.data[b.len] = '\0';
  *len = b.len;
  *data = chv_buf_detach(&b);
  fs->close(f);
  return CHV_OK;

out_free_buf:
  chv_buf_free(&b);
out_close:
  fs->close(f);
  return rc;
}

int chv_fs_write_atomic(const struct chv_fs *fs, const char *path,
                        const void *data, size_t len, struct chv_error *err) {
  static unsigned long counter;
  unsigned long n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  if (name[0] == '\0')
    return chv_error_set(err, CHV_EINVAL, "write %s: path names a folder",
                         path);
  char *dir = slash ? chv_strndup(path, slash == path ? 1 : (size_t)(slash - path))
                    : chv_strdup(".");
  char *tmp = chv_asprintf("%.*s.%s.tmp-%ld-%lu", (int)(name - path), path,
                           name, (long)getpid(), n);
  int rc;
  if (dir == NULL || tmp == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "write %s: out of memory", path);
    goto out_free;
  }
  struct chv_file *f;
  rc = fs->create(fs, tmp, true, &f, err);
  if (rc) goto out_free;
  rc = fs->write(f, data, len, err);
  if (rc == CHV_OK) rc = fs->sync(f, err);
  fs->close(f);
  if (rc == CHV_OK) rc = fs->rename(fs, tmp, path, err);
  if (rc) {
    fs->remove(fs, tmp, false, NULL);
    goto out_free;
  }
  rc = fs->sync_dir(fs, dir, err);
out_free:
  chv_free(tmp);
  chv_free(dir);
  return rc;
}

bool chv_fs_exists(const struct chv_fs *fs, const char *path) {
  struct chv_stat st;
  return fs->stat(fs, path, &st, NULL) == CHV_OK;
}

char *chv_path_join(const char *a, const char *b) {
  size_t na = strlen(a);
  while (na > 1 && a[na - 1] == '/') na--;
  while (*b == '/') b++;
  if (na == 0) return chv_strdup(b);
  if (*b == '\0') return chv_strndup(a, na);
  if (na == 1 && a[0] == '/') return chv_asprintf("/%s", b);
  return chv_asprintf("%.*s/%s", (int)na, a, b);
}

bool chv_path_is_hidden(const char *name) {
  return name[0] == '.' || name[0] == '_';
}
