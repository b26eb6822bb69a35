/** The two JSON flavours a response can take: the vendor media type (`application/vnd.service+json`) or plain JSON. */
export type ResponseFormat = 'vendor' | 'json';
