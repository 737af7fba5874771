/*
** chive public API: every public header at once.
**
**   #include <chive/all.h>
**
** chive/chive.h stays the base every header includes (status codes, struct
** chv_error, CHV_API, the version); a program may include just the headers of
** the parts it uses instead.  Build against the installed library with
** `pkg-config --cflags --libs chive`; see docs/api.md.
**
**   chive/chive.h       status codes, struct chv_error, chv_version()
**   chive/common.h      allocation hooks, struct chv_buf, chv_arena
**   chive/arrow_abi.h   the Arrow C Data and C Stream structures
**   chive/types.h       Hive types, vectors, batches, Arrow export
**   chive/compress.h    streaming (de)compression of whole-file codecs
**   chive/fs.h          the file-system method table, local back end
**   chive/config.h      option registry, layered configuration
**   chive/catalog.h     databases, tables, partitions, statistics
**   chive/text.h        TEXTFILE (LazySimpleSerDe) reader and writer
**   chive/jsonl.h       JSON Lines printing of batches
**   chive/parquet.h     Parquet reader, predicates for row groups
**   chive/orc.h         ORC reader (predicates for stripes and row
**                       groups) and writer
**   chive/connector.h   batch sink (INSERT), table scan (SELECT), splits
**   chive/source.h      a source over a table: splits, their bytes, readers
**
** Thread safety and ownership are stated in each header.
*/
#ifndef CHIVE_ALL_H
#define CHIVE_ALL_H

#include "chive/chive.h"
#include "chive/common.h"
#include "chive/arrow_abi.h"
#include "chive/types.h"
#include "chive/compress.h"
#include "chive/fs.h"
#include "chive/config.h"
#include "chive/catalog.h"
#include "chive/text.h"
#include "chive/jsonl.h"
#include "chive/pred.h"
#include "chive/parquet.h"
#include "chive/orc.h"
#include "chive/connector.h"
#include "chive/source.h"
#include "chive/sql.h"
#include "chive/session.h"

#endif /* CHIVE_ALL_H */
