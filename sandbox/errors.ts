import { randomBytes } from 'node:crypto';

/**
 * An error the sandbox answers with the service's error object (the lists document, "Error object"):
 * `{ error, eventid, message?, messageTitle? }`, with `eventid` repeated in `X-Prop-Request-Id`.
 * Route code throws it; the server's error handler writes it.
 */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly error: string,
		readonly userMessage?: string,
		readonly messageTitle?: string,
	) {
		super(error);
	}
}

export const notFound = () => new ApiError(404, 'Resource does not exist for given id');
export const badRequest = (error: string, message?: string) => new ApiError(400, error, message);

/** A troubleshooting code of the form xxx-xxx-xxx. */
export function newEventId(): string {
	const hex = randomBytes(5).toString('hex');
	return `${hex.slice(0, 3)}-${hex.slice(3, 6)}-${hex.slice(6, 9)}`;
}

export interface ErrorBody {
	error: string;
	eventid: string;
	message?: string;
	messageTitle?: string;
}

export function errorBody(err: ApiError, eventid: string): ErrorBody {
	const body: ErrorBody = { error: err.error, eventid };
	if (err.userMessage !== undefined) body.message = err.userMessage;
	if (err.messageTitle !== undefined) body.messageTitle = err.messageTitle;
	return body;
}
