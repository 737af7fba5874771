/*
** fs: the file-system interface.  A struct chv_fs is a method table (SQLite's
** sqlite3_vfs shape) so that WebHDFS and S3 can later sit beside the local
** POSIX back end.  Paths are the back end's own ("/data/wh/t/a=1/f");
** chv_fs_for_path() picks the back end from a URI scheme ("file:" or none is
** local; others are CHV_ENOTSUP until their back ends exist).
**
** INTERFACE
**   chv_fs_local()              the POSIX back end (a process-wide singleton)
**   chv_fs_for_path()           back end by scheme, and the path within it
**   chv_fs_open/_create, chv_file_close
**                               files; chv_file_pread/_read/_write/_sync/_size
**   chv_fs_stat/_list/_mkdirs/_rename/_delete (= _remove)/_sync_dir
**                               inline wrappers over the method table
**   chv_fs_read_all()           a whole (small) file into memory
**   chv_fs_write_atomic()       write to a temporary name, fsync, rename
**   chv_path_join()             join path components with one '/'
**   chv_path_is_hidden()        names starting with '.' or '_'
**
** Every error names the path and the operation.  Thread safety: a struct
** chv_fs is shared freely; a struct chv_file belongs to one thread at a time
** except pread, which may be called concurrently.
*/
#ifndef CHIVE_FS_H
#define CHIVE_FS_H

#include "chive/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct chv_fs;

/* Base of every back end's open file; back ends embed it first. */
struct chv_file {
  const struct chv_fs *fs;
  char *path; /* owned copy, for error messages */
};

struct chv_stat {
  int64_t size;     /* bytes */
  int64_t mtime_ms; /* modification time, ms since the epoch */
  bool is_dir;
};

struct chv_dirent {
  char *path;  /* full path: the listed folder joined with the name */
  char *name;  /* points into path: the last component */
  struct chv_stat st;
};

struct chv_dirlist {
  struct chv_dirent *entries;
  size_t count;
  size_t cap_;
};
CHV_API void chv_dirlist_free(struct chv_dirlist *l);

#define CHV_LIST_RECURSIVE 1u   /* descend into sub-folders */
#define CHV_LIST_SKIP_HIDDEN 2u /* skip '.' and '_' names (files and dirs) */
#define CHV_LIST_FILES_ONLY 4u  /* report files, not folders */

struct chv_fs {
  int version; /* 1 */
  const char *scheme; /* "file" */
  int (*open)(const struct chv_fs *fs, const char *path, struct chv_file **out,
              struct chv_error *err);
  /* Create or truncate for writing; exclusive fails if it exists. */
  int (*create)(const struct chv_fs *fs, const char *path, bool exclusive,
                struct chv_file **out, struct chv_error *err);
  void (*close)(struct chv_file *f);
  /* Read up to n bytes at off; *got < n only at end of file. */
  int (*pread)(struct chv_file *f, void *buf, size_t n, int64_t off,
               size_t *got, struct chv_error *err);
  /* Sequential read from the current position; *got == 0 at end. */
  int (*read)(struct chv_file *f, void *buf, size_t n, size_t *got,
              struct chv_error *err);
  int (*write)(struct chv_file *f, const void *buf, size_t n,
               struct chv_error *err);
  int (*sync)(struct chv_file *f, struct chv_error *err);
  int (*size)(struct chv_file *f, int64_t *out, struct chv_error *err);
  int (*stat)(const struct chv_fs *fs, const char *path, struct chv_stat *out,
              struct chv_error *err);
  int (*list)(const struct chv_fs *fs, const char *dir, unsigned flags,
              struct chv_dirlist *out, struct chv_error *err);
  int (*mkdirs)(const struct chv_fs *fs, const char *path,
                struct chv_error *err);
  /* Atomic within one file system; replaces a file, fails on a non-empty
  ** folder target. */
  int (*rename)(const struct chv_fs *fs, const char *from, const char *to,
                struct chv_error *err);
  /* Files, or folders with their contents when recursive. Missing: ENOENT. */
  int (*remove)(const struct chv_fs *fs, const char *path, bool recursive,
                struct chv_error *err);
  int (*sync_dir)(const struct chv_fs *fs, const char *path,
                  struct chv_error *err);
};

CHV_API const struct chv_fs *chv_fs_local(void);
/* Back end for a path or URI; *inner points at the path within it. */
CHV_API int chv_fs_for_path(const char *uri, const struct chv_fs **fs,
                            const char **inner, struct chv_error *err);

/* Convenience wrappers over the method table. */
static inline int chv_fs_open(const struct chv_fs *fs, const char *path,
                              struct chv_file **out, struct chv_error *err) {
  return fs->open(fs, path, out, err);
}
static inline void chv_file_close(struct chv_file *f) {
  if (f) f->fs->close(f);
}
static inline int chv_fs_create(const struct chv_fs *fs, const char *path,
                                bool exclusive, struct chv_file **out,
                                struct chv_error *err) {
  return fs->create(fs, path, exclusive, out, err);
}
static inline int chv_file_pread(struct chv_file *f, void *buf, size_t n,
                                 int64_t off, size_t *got,
                                 struct chv_error *err) {
  return f->fs->pread(f, buf, n, off, got, err);
}
static inline int chv_file_read(struct chv_file *f, void *buf, size_t n,
                                size_t *got, struct chv_error *err) {
  return f->fs->read(f, buf, n, got, err);
}
static inline int chv_file_write(struct chv_file *f, const void *buf, size_t n,
                                 struct chv_error *err) {
  return f->fs->write(f, buf, n, err);
}
static inline int chv_file_sync(struct chv_file *f, struct chv_error *err) {
  return f->fs->sync(f, err);
}
static inline int chv_file_size(struct chv_file *f, int64_t *out,
                                struct chv_error *err) {
  return f->fs->size(f, out, err);
}
static inline int chv_fs_stat(const struct chv_fs *fs, const char *path,
                              struct chv_stat *out, struct chv_error *err) {
  return fs->stat(fs, path, out, err);
}
/* out is filled afresh (any previous content is not freed): chv_dirlist_free
** it.  Entries are sorted by name within each folder; a recursive listing is
** depth-first, a folder's entry (unless FILES_ONLY) before its contents. */
static inline int chv_fs_list(const struct chv_fs *fs, const char *dir,
                              unsigned flags, struct chv_dirlist *out,
                              struct chv_error *err) {
  return fs->list(fs, dir, flags, out, err);
}
static inline int chv_fs_mkdirs(const struct chv_fs *fs, const char *path,
                                struct chv_error *err) {
  return fs->mkdirs(fs, path, err);
}
static inline int chv_fs_rename(const struct chv_fs *fs, const char *from,
                                const char *to, struct chv_error *err) {
  return fs->rename(fs, from, to, err);
}
static inline int chv_fs_delete(const struct chv_fs *fs, const char *path,
                                bool recursive, struct chv_error *err) {
  return fs->remove(fs, path, recursive, err);
}
static inline int chv_fs_remove(const struct chv_fs *fs, const char *path,
                                bool recursive, struct chv_error *err) {
  return fs->remove(fs, path, recursive, err);
}
static inline int chv_fs_sync_dir(const struct chv_fs *fs, const char *path,
                                  struct chv_error *err) {
  return fs->sync_dir(fs, path, err);
}

/* The whole file into *data (chv_free it; NUL-terminated beyond *len).
** limit < 0 means no limit; a longer file is CHV_ERANGE. */
CHV_API int chv_fs_read_all(const struct chv_fs *fs, const char *path,
                            char **data, size_t *len, int64_t limit,
                            struct chv_error *err);
/* Writes ".<name>.tmp-<pid>-<n>" in path's folder, fsyncs it, renames it over
** path and fsyncs the folder: readers see the old or the new bytes, never a
** mix.  The temporary file is removed on failure. */
CHV_API int chv_fs_write_atomic(const struct chv_fs *fs, const char *path,
                                const void *data, size_t len,
                                struct chv_error *err);
CHV_API bool chv_fs_exists(const struct chv_fs *fs, const char *path);

/* Join with exactly one '/' between parts; chv_free the result. */
CHV_API char *chv_path_join(const char *a, const char *b);
CHV_API bool chv_path_is_hidden(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_FS_H */
