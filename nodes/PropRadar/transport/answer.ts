import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, type ApiContext, type CredentialData } from './credential';
import { describeFailure, isServiceRefusal, redact, withoutUserPart } from './errors';
import { markRefused } from './outcome';

export interface Answer {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	/** The body read as JSON, or its text when it is not JSON, or undefined when empty. */
	body: unknown;
}

// Through n8n's request helper (its proxy settings and SSRF protection: docs/design.md); every status
// and redirect is an answer for the caller to read.
export async function exchange(
	context: ApiContext,
	credentials: CredentialData,
	request: IHttpRequestOptions,
): Promise<Answer> {
	const answer = (await context.helpers.httpRequestWithAuthentication.call(
		context,
		CREDENTIAL_TYPE,
		request,
		{
			credentialsDecrypted: {
				id: '',
				name: '',
				type: CREDENTIAL_TYPE,
				data: credentials as ICredentialDataDecryptedObject,
			},
		},
	)) as { statusCode: number; headers: Answer['headers']; body: unknown };
	const text = typeof answer.body === 'string' ? answer.body : '';
	let parsed: unknown = text === '' ? undefined : text;
	if (text !== '') {
		try {
			parsed = JSON.parse(text);
		} catch {
			// Not JSON (an HTML error page, a proxy's text): the text is what the error shows.
		}
	}
	return { statusCode: answer.statusCode, headers: answer.headers, body: parsed };
}

/** `/v1/lists/12/import/items/7` is "import item 7 of list 12": a 404 says which one does not exist. */
export function subjectOf(path: string): string | undefined {
	const [, , kind, id, sub, subId, importItemId] = path
		.split('/')
		.map((part) => decodeURIComponent(part));
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

function parameterNames(qs: Record<string, unknown>, body: unknown): string[] {
	const fields = (value: unknown): string[] =>
		Array.isArray(value)
			? value.flatMap(fields)
			: typeof value === 'object' && value !== null
				? Object.keys(value)
				: [];
	return [...Object.keys(qs), ...fields(body)];
}

export function failedAnswer(
	context: ApiContext,
	response: Answer,
	request: {
		address: string;
		path: string;
		qs: Record<string, string>;
		body?: IDataObject | IDataObject[];
		charging: boolean;
		secrets: string[];
		itemIndex?: number;
	},
): NodeApiError {
	const { address, charging, secrets } = request;
	const status = response.statusCode;
	const header = (name: string) => {
		const value = response.headers?.[name];
		return typeof value === 'string' ? value : undefined;
	};
	const failure = describeFailure(status, response.body, header('x-prop-request-id'), {
		charging,
		secrets,
		subject: subjectOf(request.path),
		parameters: parameterNames(request.qs, request.body),
	});
	if (status >= 300 && status < 400) {
		failure.message = `PropRadar answered with a redirect (${status}), which is not followed`;
		failure.description = [
			`${address}${request.path} redirected to ` +
				`${redact(withoutUserPart(header('location') ?? 'no address'), secrets)}. ` +
				`PropRadar's API does not redirect: check the Base URL of the PropRadar ` +
				`credential. Nothing was sent there.`,
			charging
				? 'A redirect is no answer to the purchase, so it may or may not have been ' +
					'charged; it was not sent again, and this run buys nothing more. Check the ' +
					"account's charges in PropRadar before running it again."
				: '',
		]
			.filter(Boolean)
			.join(' ');
	}
	const error = new NodeApiError(context.getNode(), {} as JsonObject, {
		...failure,
		itemIndex: request.itemIndex,
	});
	return isServiceRefusal(status, response.body) ? markRefused(error) : error;
}
