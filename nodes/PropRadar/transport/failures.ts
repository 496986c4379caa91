import { NodeApiError, NodeOperationError, UserError } from 'n8n-workflow';
import type { IDataObject, IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';

import {
	describeFailure,
	isServiceRefusal,
	redact,
	redactAll,
	withCharge,
	withoutUserPart,
	type Charge,
} from './errors';
import type { ApiContext } from './run';

/** A request as its failure describes it: where it went, what it carried, and whether it buys. */
export interface Sending {
	address: string;
	path: string;
	qs: Record<string, string>;
	body?: IDataObject | IDataObject[];
	charging: boolean;
	secrets: string[];
	itemIndex?: number;
}

const CHECK_CHARGES = "Check the account's charges in PropRadar before running it again.";

/** `/v1/lists/12/import/items/7` is "import item 7 of list 12": a 404 says which one does not exist. */
export function subjectOf(path: string): string | undefined {
	const [, , kind, id, sub, subId, importItemId] = path.split('/').map(decodeURIComponent);
	if (kind === 'lists' && id) {
		if (sub === 'items' && subId) return `property ${subId} in list ${id}`;
		if (sub === 'import' && importItemId) return `import item ${importItemId} of list ${id}`;
		return `list ${id}`;
	}
	if (kind === 'properties' && id) return `property ${id}`;
	if (kind === 'persons' && id) return `person ${id}`;
	if (kind === 'integrations' && sub) return `webhook ${sub}`;
	return undefined;
}

const fieldNames = (value: unknown): string[] =>
	Array.isArray(value)
		? value.flatMap(fieldNames)
		: typeof value === 'object' && value !== null
			? Object.keys(value)
			: [];

// n8n shows the answer's status and error object (`context.data`, from `response.data`), redacted
// first: a server can echo the token.
export function answerError(
	context: ApiContext,
	answer: IN8nHttpFullResponse,
	sending: Sending,
): NodeApiError {
	const { statusCode: status, body } = answer;
	const { charging, secrets } = sending;
	const header = (name: string) => {
		const value = answer.headers?.[name];
		return typeof value === 'string' ? redact(value, secrets) : undefined;
	};
	const failure = describeFailure(status, body, header('x-prop-request-id'), {
		...sending,
		subject: subjectOf(sending.path),
		parameters: [...Object.keys(sending.qs), ...fieldNames(sending.body)],
	});
	if (status >= 300 && status < 400) {
		const target = withoutUserPart(header('location') ?? 'no address');
		failure.message = `PropRadar answered with a redirect (${status}), which is not followed`;
		failure.description =
			`${sending.address}${sending.path} redirected to ${target}. PropRadar's API does not redirect: check the Base URL of the PropRadar credential. Nothing was sent there.` +
			(charging
				? ` A redirect is no answer to the purchase, so it may or may not have been charged; it was not sent again, and this run buys nothing more. ${CHECK_CHARGES}`
				: '');
	}
	const response = { status, data: redactAll(body, secrets) };
	const error = new NodeApiError(context.getNode(), { response } as JsonObject, {
		...failure,
		itemIndex: sending.itemIndex,
	});
	// n8n puts the body's own `message` in place of the description it is given (NodeApiError in
	// n8n-workflow's node-api.error.ts): the node's description says that and more.
	error.description = failure.description;
	const refused = isServiceRefusal(status, body);
	return withCharge(error, refused ? 'none' : charging ? 'unknown' : undefined);
}

// n8n's request helper wraps what failed (the connection's error, an SSRF refusal) as the `cause`.
type Cause = Error & { code?: unknown };

function causes(error: unknown): Cause[] {
	const chain: Cause[] = [];
	let at = error as Cause | undefined;
	while (typeof at === 'object' && at !== null && !chain.includes(at)) {
		chain.push(at);
		at = at.cause as Cause | undefined;
	}
	return chain;
}

export function networkErrorCode(error: unknown): string | undefined {
	const code = causes(error).find((cause) => typeof cause.code === 'string')?.code;
	return code as string | undefined;
}

// A request fails with these only while it waits for its connection, before anything is written.
const NOT_CONNECTED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
]);

// A request that got no answer. NodeApiError is given what failed (name and message), not its
// `code`: n8n would put its own generic sentence in place of the message.
export function connectionError(
	context: ApiContext,
	error: unknown,
	sending: Sending,
): NodeApiError {
	const { address, charging, itemIndex } = sending;
	const blocked = causes(error).find((cause) => cause instanceof UserError);
	const failed = blocked ?? causes(error).at(-1);
	const what = {
		name: String(failed?.name ?? 'Error'),
		message: redact(String(failed?.message ?? ''), sending.secrets),
	};
	const make = (message: string, description: string, charge?: Charge) =>
		withCharge(
			new NodeApiError(context.getNode(), what, { message, description, itemIndex }),
			charge,
		);
	// In n8n 2.41 the refusal its request helper makes before anything is sent is its SSRF
	// protection's, a UserError (SsrfBlockedIpError, SsrfBlockedHostnameError).
	if (blocked)
		return make(
			`This n8n's SSRF protection blocks PropRadar at ${address}`,
			`${what.message}. Nothing was sent${charging ? ' and nothing charged' : ''}. To reach this address, the instance's owner can allow it with N8N_SSRF_ALLOWED_IP_RANGES or N8N_SSRF_ALLOWED_HOSTNAMES.`,
			'none',
		);
	const code = networkErrorCode(error);
	// n8n replaces a message naming a network error code with its own: the code goes in the description.
	const cause = code ? ` (${code})` : '';
	if (charging && code && NOT_CONNECTED.has(code))
		return make(
			`Could not reach PropRadar at ${address}: the purchase was not sent`,
			`The connection could not be made${cause}, so the purchase never left n8n: nothing was charged. Check the Base URL of the PropRadar credential and that the service (or the local sandbox) is running.`,
			'none',
		);
	if (charging)
		return make(
			'The connection to PropRadar failed during a purchase: it may have been charged',
			`The connection to ${address} failed${cause} after the purchase was sent, before PropRadar answered, so it may have been charged. It was not sent again, and this run buys nothing more. ${CHECK_CHARGES}`,
			'unknown',
		);
	return make(
		`Could not reach PropRadar at ${address}`,
		`The connection failed${cause}. Check the Base URL of the PropRadar credential and that the service (or the local sandbox) is running.`,
	);
}

// n8n drops what a stopped execution's node returns, so nothing more is sent (docs/money.md, rule 9).
export function stopped(
	context: ApiContext,
	sending: Pick<Sending, 'charging' | 'itemIndex'>,
	sent: boolean,
): NodeOperationError {
	const { charging, itemIndex } = sending;
	const stop =
		"n8n stopped this execution (from the editor or its API, or at the workflow's timeout)";
	const error = new NodeOperationError(
		context.getNode(),
		sent && charging
			? 'The execution was stopped during a purchase: it may have been charged'
			: 'The execution was stopped: nothing more is sent to PropRadar',
		{
			itemIndex,
			description: !sent
				? `${stop} before this request went out, so it was not sent${charging ? ' and nothing was charged for it' : ''}.`
				: charging
					? `${stop} after this purchase was sent, before PropRadar answered, so it may have been charged. Nothing more was sent. ${CHECK_CHARGES}`
					: `${stop} while a request that buys nothing was under way; its answer was not waited for.`,
		},
	);
	return withCharge(error, !sent ? 'none' : charging ? 'unknown' : undefined);
}
