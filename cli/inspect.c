/* inspect.c - `fenci check` (full verification) and `fenci dump` (header,
 * sections and metadata of a model file, shown as stored, so that a damaged
 * or changed file can be diagnosed). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "fenci.h"
#include "fmt.h"

static void check_usage(FILE *f) {
  fprintf(f, "usage: fenci check MODEL...\nVerifies model files completely (file size against the header's, CRCs,\n"
             "every section, every trie node); exit 1 if any is bad.  A MODEL is a path or a name,\n"
             "as for 'fenci cut -m'.\n");
}

static void dump_usage(FILE *f) {
  fprintf(f, "usage: fenci dump MODEL\nPrints a model file's header (sizes and CRCs, stored and computed),\n"
             "sections and metadata.  MODEL is a path or a name, as for 'fenci cut -m'.\n");
}

/* A model named on the command line: its path when the search finds it,
 * else the argument itself, so that the library's message says what is wrong. */
static void inspect_path(const char *arg, char *path, size_t n) {
  if (fc_cli_model_path(arg, path, n)) snprintf(path, n, "%s", arg);
}

int fc_cmd_check(int argc, char **argv) {
  const char *models[256];
  int n = 0, i, bad = 0;
  fc_opts o;
  fc_opts_init(&o, "check", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (n == 256) {
        fprintf(stderr, "fenci check: too many models\n");
        return 2;
      }
      models[n++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      check_usage(stdout);
      return 0;
    } else return fc_opt_unknown(&o);
  }
  if (!n) {
    check_usage(stderr);
    return 2;
  }
  for (i = 0; i < n; i++) {
    char path[4400], err[512];
    fenci_rc rc;
    inspect_path(models[i], path, sizeof path);
    err[0] = 0;
    rc = fenci_model_check(path, err, sizeof err);
    if (rc == FENCI_OK) printf("%s: ok\n", path);
    else {
      if (err[0]) fprintf(stderr, "%s\n", err);
      else fprintf(stderr, "%s: %s\n", path, fenci_rc_str(rc));
      bad = 1;
    }
  }
  return bad;
}

/* The header and the section table as stored, each field judged; bytes
 * past the end of a cut file are never read. */
static void fc_dump_container(const uint8_t *p, size_t size) {
  fc_header h;
  fc_entry e;
  uint32_t i, crc;
  if (fc_fmt_header_decode(&h, p, size) != 0) {
    printf("size: %zu bytes\nheader: incomplete (%zu of 64 bytes)\n", size, size);
    return;
  }
  printf("size: %zu bytes, the header says %llu%s\n", size, (unsigned long long)h.file_size,
         h.file_size == size ? ""
         : h.file_size > size ? ": TRUNCATED (cut short, or truncated after it was written)"
                              : ": LONGER (appended to, or overwritten in place by a shorter file)");
  printf("format: %u.%u\n", h.major, h.minor);
  printf("header: magic %s, byte order %s, float check %s, reserved bytes %s\n", h.magic_ok ? "ok" : "BAD",
         h.byte_order_ok ? "ok" : "BAD", h.float_ok ? "ok" : "BAD",
         h.reserved_zero ? "zero" : "NOT ZERO");
  printf("header CRC: stored 0x%08x, computed 0x%08x: %s\n", (unsigned)h.header_crc, (unsigned)h.header_crc_computed,
         h.header_crc == h.header_crc_computed ? "ok" : "MISMATCH (the header is damaged)");
  crc = fc_crc32(0, p + 64, size - 64);
  printf("body CRC: stored 0x%08x, computed 0x%08x over bytes 64..%zu: %s\n", (unsigned)h.body_crc, (unsigned)crc,
         size, h.body_crc == crc ? "ok"
               : h.file_size != size ? "MISMATCH (the size differs too)"
                                     : "MISMATCH (the bytes changed after the file was written: rewritten in "
                                       "place while in use, or damaged)");
  printf("sections: %u\n", (unsigned)h.n_sections);
  for (i = 0; i < h.n_sections && fc_fmt_entry_decode(&e, p, size, i) == 0; i++) {
    char tag[5];
    int k;
    for (k = 0; k < 4; k++) tag[k] = e.tag[k] >= 0x20 && e.tag[k] < 0x7F ? e.tag[k] : '?';
    tag[4] = 0;
    printf("  %s  offset %llu  size %llu%s\n", tag, (unsigned long long)e.offset, (unsigned long long)e.size,
           e.offset > size || e.size > size - e.offset ? "  PAST THE END OF THE FILE" : "");
  }
  if (i < h.n_sections) printf("  (entries %u.. are past the end of the file or over the maximum of 64)\n", i);
}

int fc_cmd_dump(int argc, char **argv) {
  fenci_model *m = NULL;
  fc_mapping map;
  char path[4400], err[512];
  const char *model = NULL;
  size_t len;
  const char *meta;
  fenci_rc rc;
  fc_opts o;
  fc_opts_init(&o, "dump", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (model) {
        fprintf(stderr, "fenci dump: one MODEL only\n");
        return 2;
      }
      model = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      dump_usage(stdout);
      return 0;
    } else return fc_opt_unknown(&o);
  }
  if (!model) {
    dump_usage(stderr);
    return 2;
  }
  inspect_path(model, path, sizeof path);
  /* read, not mapped: the file may be the one that is changing */
  rc = fc_map_file(&map, path, FC_MAP_READ, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci: cannot open model: %s\n", err[0] ? err : fenci_rc_str(rc));
    return 1;
  }
  printf("file: %s\n", path);
  fc_dump_container(map.data, map.size);
  /* a model that references its lexicon file is opened by path (READ, as above) */
  rc = fenci_model_from_buffer(&m, map.data, map.size, NULL, err, sizeof err);
  if (rc == FENCI_BADFORMAT && strstr(err, "LREF")) {
    printf("lexicon: in the file it references (LREF)\n");
    rc = fenci_model_open_ex(&m, path, FENCI_OPEN_READ, NULL, err, sizeof err);
  }
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci: cannot open model: %s: %s\n", path, err[0] ? err : fenci_rc_str(rc));
    fc_unmap(&map);
    return 1;
  }
  printf("lexicon words: %zu\ntrained segmenter: %s\nPOS tagger: %s\nname recogniser: %s\n",
         fenci_model_lexicon_size(m), fenci_model_has_weights(m) ? "yes" : "no", fenci_model_has_pos(m) ? "yes" : "no",
         fenci_model_has_ner(m) ? "yes" : "no");
  meta = fenci_model_meta(m, &len);
  printf("metadata:\n");
  fwrite(meta, 1, len, stdout);
  if (len && meta[len - 1] != '\n') putchar('\n');
  fenci_model_free(m);
  fc_unmap(&map);
  return 0;
}
