export { apiRequest, getConnection, CREDENTIAL_TYPE } from './request';
export type { ApiContext, ApiRequest, Connection } from './request';
export { collectPages, pageThrough } from './paging';
export type { PagedResult, PagingOptions } from './paging';
export { paths } from './paths';
export type { ApiPath, PersonRecordPathKind } from './paths';
export { encodeQuery, formatCents, toCents } from './query';
export { describeFailure, retryDelay, toNodeError } from './errors';
export type * from './types';
