/** One request of a load run; runs cycle through several (e.g. POST bodies of different users). */
export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/entries?per_page=200`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  name: string;
  /** `http://host:port`, without a path. */
  baseUrl: string;
  connections: number;
  seconds: number;
  requests: LoadRequest[];
  /** Cache-busting: each request of the first kind gets `&<uniqueQuery>=<counter>`, never the same twice. */
  uniqueQuery?: string;
}
