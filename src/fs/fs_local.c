/*
** fs_local: the POSIX back end of struct chv_fs.  Plain file descriptors;
** every system call is retried on EINTR and short writes are continued, and
** every error names the operation and the path.
**
** INTERFACE
**   chv_fs_local()   the process-wide back end (a static method table)
**
** Listings are sorted by name within each folder so that callers (split
** planning, tests) see the same order on every run and every file system.
*/
#include "fs/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct local_file {
  struct chv_file base; /* must be first */
  int fd;
};

static const struct chv_fs local_fs;

static int64_t mtime_ms(const struct stat *st) {
  return (int64_t)st->st_mtim.tv_sec * 1000 + st->st_mtim.tv_nsec / 1000000;
}

static void fill_stat(struct chv_stat *out, const struct stat *st) {
  out->size = S_ISDIR(st->st_mode) ? 0 : (int64_t)st->st_size;
  out->mtime_ms = mtime_ms(st);
  out->is_dir = S_ISDIR(st->st_mode);
}

static int file_new(const char *path, int fd, struct chv_file **out,
                    struct chv_error *err) {
  struct local_file *lf = chv_calloc(1, sizeof *lf);
  char *copy = chv_strdup(path);
  if (lf == NULL || copy == NULL) {
    chv_free(lf);
    chv_free(copy);
    close(fd);
    return chv_error_set(err, CHV_ENOMEM, "open %s: out of memory", path);
  }
  lf->base.fs = &local_fs;
  lf->base.path = copy;
  lf->fd = fd;
  *out = &lf->base;
  return CHV_OK;
}

static int local_open(const struct chv_fs *fs, const char *path,
                      struct chv_file **out, struct chv_error *err) {
  int fd;
  do
    fd = open(path, O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return chv_error_errno(err, errno, "open %s", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return chv_error_errno(err, e, "open %s", path);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return chv_error_set(err, CHV_EINVAL, "open %s: is a folder, not a file",
                         path);
  }
  return file_new(path, fd, out, err);
}

static int local_create(const struct chv_fs *fs, const char *path,
                        bool exclusive, struct chv_file **out,
                        struct chv_error *err) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC);
  int fd;
  do
    fd = open(path, flags, 0666);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return chv_error_errno(err, errno, "create %s%s", path,
                           exclusive ? " (exclusive)" : "");
  int rc = file_new(path, fd, out, err);
  /* A file this call created must not outlive its failure. */
  if (rc != CHV_OK && exclusive) unlink(path);
  return rc;
}

static void local_close(struct chv_file *f) {
  struct local_file *lf = (struct local_file *)f;
  close(lf->fd); /* no retry on EINTR: the descriptor is gone either way */
  chv_free(lf->base.path);
  chv_free(lf);
}

static int local_pread(struct chv_file *f, void *buf, size_t n, int64_t off,
                       size_t *got, struct chv_error *err) {
  struct local_file *lf = (struct local_file *)f;
  if (off < 0)
    return chv_error_set(err, CHV_EINVAL, "read %s: negative offset %lld",
                         f->path, (long long)off);
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(lf->fd, (char *)buf + done, n - done,
                      (off_t)(off + (int64_t)done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return chv_error_errno(err, errno, "read %s at offset %lld", f->path,
                             (long long)(off + (int64_t)done));
    }
    if (r == 0) break;
    done += (size_t)r;
  }
  *got = done;
  return CHV_OK;
}

static int local_read(struct chv_file *f, void *buf, size_t n, size_t *got,
                      struct chv_error *err) {
  struct local_file *lf = (struct local_file *)f;
  size_t done = 0;
  while (done < n) {
    ssize_t r = read(lf->fd, (char *)buf + done, n - done);
    if (r < 0) {
      if (errno == EINTR) continue;
      return chv_error_errno(err, errno, "read %s", f->path);
    }
    if (r == 0) break;
    done += (size_t)r;
  }
  *got = done;
  return CHV_OK;
}

static int local_write(struct chv_file *f, const void *buf, size_t n,
                       struct chv_error *err) {
  struct local_file *lf = (struct local_file *)f;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(lf->fd, (const char *)buf + done, n - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return chv_error_errno(err, errno, "write %s", f->path);
    }
    done += (size_t)w;
  }
  return CHV_OK;
}

static int local_sync(struct chv_file *f, struct chv_error *err) {
  struct local_file *lf = (struct local_file *)f;
  int r;
  do
    r = fsync(lf->fd);
  while (r != 0 && errno == EINTR);
  if (r != 0) return chv_error_errno(err, errno, "fsync %s", f->path);
  return CHV_OK;
}

static int local_size(struct chv_file *f, int64_t *out, struct chv_error *err) {
  struct local_file *lf = (struct local_file *)f;
  struct stat st;
  if (fstat(lf->fd, &st) != 0)
    return chv_error_errno(err, errno, "stat %s", f->path);
  *out = (int64_t)st.st_size;
  return CHV_OK;
}

static int local_stat(const struct chv_fs *fs, const char *path,
                      struct chv_stat *out, struct chv_error *err) {
  struct stat st;
  if (stat(path, &st) != 0) return chv_error_errno(err, errno, "stat %s", path);
  fill_stat(out, &st);
  return CHV_OK;
}

/* ---- listing ----------------------------------------------------------- */

static int dirlist_push(struct chv_dirlist *l, char *path, size_t name_off,
                        const struct chv_stat *st) {
  if (l->count == l->cap_) {
    size_t cap = l->cap_ ? l->cap_ * 2 : 16;
    struct chv_dirent *e = chv_realloc(l->entries, cap * sizeof *e);
    if (e == NULL) return CHV_ENOMEM;
    l->entries = e;
    l->cap_ = cap;
  }
  struct chv_dirent *d = &l->entries[l->count++];
  d->path = path;
  d->name = path + name_off;
  d->st = *st;
  return CHV_OK;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (without "." and ".."), sorted; *names and each name are
** chv_malloc'd. */
static int read_names(const char *dir, char ***names, size_t *count,
                      struct chv_error *err) {
  DIR *d = opendir(dir);
  if (d == NULL) return chv_error_errno(err, errno, "list %s", dir);
  char **v = NULL;
  size_t n = 0, cap = 0;
  int rc = CHV_OK;
  for (;;) {
    errno = 0;
    struct dirent *e = readdir(d);
    if (e == NULL) {
      if (errno != 0) rc = chv_error_errno(err, errno, "list %s", dir);
      break;
    }
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      char **nv = chv_realloc(v, ncap * sizeof *nv);
      if (nv == NULL) {
        rc = chv_error_set(err, CHV_ENOMEM, "list %s: out of memory", dir);
        break;
      }
      v = nv;
      cap = ncap;
    }
    if ((v[n] = chv_strdup(e->d_name)) == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "list %s: out of memory", dir);
      break;
    }
    n++;
  }
  closedir(d);
  if (rc) {
    for (size_t i = 0; i < n; i++) chv_free(v[i]);
    chv_free(v);
    return rc;
  }
  if (n > 1) qsort(v, n, sizeof *v, cmp_names);
  *names = v;
  *count = n;
  return CHV_OK;
}

static int list_into(const char *dir, unsigned flags, int depth,
                     struct chv_dirlist *out, struct chv_error *err) {
  if (depth > 256)
    return chv_error_set(err, CHV_EINVAL,
                         "list %s: folders nested deeper than 256 levels", dir);
  char **names;
  size_t n;
  CHV_RETURN_IF_ERR(read_names(dir, &names, &n, err));
  int rc = CHV_OK;
  size_t i;
  for (i = 0; i < n && rc == CHV_OK; i++) {
    if ((flags & CHV_LIST_SKIP_HIDDEN) && chv_path_is_hidden(names[i]))
      continue;
    char *path = chv_path_join(dir, names[i]);
    if (path == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "list %s: out of memory", dir);
      break;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
      int e = errno;
      chv_free(path);
      if (e == ENOENT) continue; /* removed meanwhile, or a dangling link */
      rc = chv_error_errno(err, e, "list %s: stat", dir);
      break;
    }
    struct chv_stat cs;
    fill_stat(&cs, &st);
    size_t name_off = strlen(path) - strlen(names[i]);
    bool is_dir = cs.is_dir;
    if (is_dir && (flags & CHV_LIST_FILES_ONLY)) {
      if (flags & CHV_LIST_RECURSIVE) rc = list_into(path, flags, depth + 1, out, err);
      chv_free(path);
      continue;
    }
    if (dirlist_push(out, path, name_off, &cs) != CHV_OK) {
      chv_free(path);
      rc = chv_error_set(err, CHV_ENOMEM, "list %s: out of memory", dir);
      break;
    }
    if (is_dir && (flags & CHV_LIST_RECURSIVE))
      rc = list_into(out->entries[out->count - 1].path, flags, depth + 1, out,
                     err);
  }
  for (i = 0; i < n; i++) chv_free(names[i]);
  chv_free(names);
  return rc;
}

static int local_list(const struct chv_fs *fs, const char *dir, unsigned flags,
                      struct chv_dirlist *out, struct chv_error *err) {
  struct chv_dirlist l = {NULL, 0, 0};
  int rc = list_into(dir, flags, 0, &l, err);
  if (rc) {
    chv_dirlist_free(&l);
    return rc;
  }
  *out = l;
  return CHV_OK;
}

/* ---- folders, rename, remove ------------------------------------------ */

static int local_mkdirs(const struct chv_fs *fs, const char *path,
                        struct chv_error *err) {
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return CHV_OK;
    return chv_error_set(err, CHV_EEXIST,
                         "mkdirs %s: exists and is not a folder", path);
  }
  char *p = chv_strdup(path);
  if (p == NULL)
    return chv_error_set(err, CHV_ENOMEM, "mkdirs %s: out of memory", path);
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
  int rc = CHV_OK;
  /* Create each prefix in turn; EEXIST from a racing creator is fine. */
  for (char *s = p + 1;; s++) {
    if (*s != '/' && *s != '\0') continue;
    char c = *s;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      rc = chv_error_errno(err, errno, "mkdirs %s: mkdir %s", path, p);
      break;
    }
    *s = c;
    if (c == '\0') break;
  }
  if (rc == CHV_OK && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
    rc = chv_error_set(err, CHV_EEXIST,
                       "mkdirs %s: a component exists and is not a folder",
                       path);
  chv_free(p);
  return rc;
}

static int local_rename(const struct chv_fs *fs, const char *from,
                        const char *to, struct chv_error *err) {
  if (rename(from, to) != 0)
    return chv_error_errno(err, errno, "rename %s to %s", from, to);
  return CHV_OK;
}

static int remove_tree(const char *path, int depth, struct chv_error *err) {
  struct stat st;
  if (lstat(path, &st) != 0) return chv_error_errno(err, errno, "remove %s", path);
  if (!S_ISDIR(st.st_mode)) {
    if (unlink(path) != 0) return chv_error_errno(err, errno, "remove %s", path);
    return CHV_OK;
  }
  if (depth > 256)
    return chv_error_set(err, CHV_EINVAL,
                         "remove %s: folders nested deeper than 256 levels",
                         path);
  char **names;
  size_t n;
  CHV_RETURN_IF_ERR(read_names(path, &names, &n, err));
  int rc = CHV_OK;
  for (size_t i = 0; i < n; i++) {
    if (rc == CHV_OK) {
      char *child = chv_path_join(path, names[i]);
      if (child == NULL)
        rc = chv_error_set(err, CHV_ENOMEM, "remove %s: out of memory", path);
      else
        rc = remove_tree(child, depth + 1, err);
      chv_free(child);
    }
    chv_free(names[i]);
  }
  chv_free(names);
  if (rc == CHV_OK && rmdir(path) != 0)
    rc = chv_error_errno(err, errno, "remove %s", path);
  return rc;
}

static int local_remove(const struct chv_fs *fs, const char *path,
                        bool recursive, struct chv_error *err) {
  if (recursive) return remove_tree(path, 0, err);
  struct stat st;
  if (lstat(path, &st) != 0) return chv_error_errno(err, errno, "remove %s", path);
  int r = S_ISDIR(st.st_mode) ? rmdir(path) : unlink(path);
  if (r != 0) return chv_error_errno(err, errno, "remove %s", path);
  return CHV_OK;
}

static int local_sync_dir(const struct chv_fs *fs, const char *path,
                          struct chv_error *err) {
  int fd;
  do
    fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return chv_error_errno(err, errno, "fsync folder %s", path);
  int r;
  do
    r = fsync(fd);
  while (r != 0 && errno == EINTR);
  int e = errno;
  close(fd);
  /* Some file systems cannot fsync a folder; that is not a failure. */
  if (r != 0 && e != EINVAL && e != EROFS)
    return chv_error_errno(err, e, "fsync folder %s", path);
  return CHV_OK;
}

static const struct chv_fs local_fs = {
    .version = 1,
    .scheme = "file",
    .open = local_open,
    .create = local_create,
    .close = local_close,
    .pread = local_pread,
    .read = local_read,
    .write = local_write,
    .sync = local_sync,
    .size = local_size,
    .stat = local_stat,
    .list = local_list,
    .mkdirs = local_mkdirs,
    .rename = local_rename,
    .remove = local_remove,
    .sync_dir = local_sync_dir,
};

const struct chv_fs *chv_fs_local(void) { return &local_fs; }
