/** A page request after validation: `page` starts at 1. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** The specification's paginated list: `{ items, total, page, limit, totalPages }`. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export function toPage<T>(items: T[], total: number, request: PageRequest): Page<T> {
  return { items, total, page: request.page, limit: request.limit, totalPages: Math.ceil(total / request.limit) };
}

export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.limit;
}
