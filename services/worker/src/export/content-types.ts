/**
 * The media type of every file an export stores, by kind. The worker records it on the export when the file
 * is stored; the API serves the file with the recorded type, so this is the only place that maps them.
 */
export const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  ofx: 'application/x-ofx',
  zip: 'application/zip',
  json: 'application/json',
} as const;
