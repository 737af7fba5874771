/*
** format/orc: the ORC file format, read and written natively from the
** apache/orc-format specification (docs/orc.md).
*/
#ifndef CHV_FORMAT_ORC_H
#define CHV_FORMAT_ORC_H

#endif
