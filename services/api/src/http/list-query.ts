/** `page` and `per_page` of a paged list query (per_page from 10 to 500). */
export const pageParams = (defaultPerPage = 200) => ({
  page: { type: 'integer', minimum: 0, default: 0 },
  per_page: { type: 'integer', minimum: 10, maximum: 500, default: defaultPerPage },
});

/** The paging and sync parameters of a synced list query: page, per_page, since, include_deleted. */
export const syncedListParams = (options: { defaultPerPage?: number; describeSince?: boolean } = {}) => ({
  ...pageParams(options.defaultPerPage),
  since:
    options.describeSince === false
      ? { type: 'string' }
      : { type: 'string', description: 'A Service-Modified value of this endpoint.' },
  include_deleted: { type: 'boolean' },
});
