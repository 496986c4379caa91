import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

// A user part (`user:password@`), with or without a scheme (as the transport's `withoutUserPart` finds it).
const USER_PART = /^(?:(?:[a-z][a-z0-9+.-]*:)?\/\/)?[^/?#]*@/i;

export class PropRadarApi implements ICredentialType {
	name = 'propRadarApi';

	displayName = 'PropRadar API';

	icon: Icon = { light: 'file:../icons/propradar.svg', dark: 'file:../icons/propradar.dark.svg' };

	documentationUrl = 'https://github.com/propradar/n8n-nodes-propradar#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The API access token of your PropRadar account. For the local sandbox use sandbox-token.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8787',
			required: true,
			placeholder: 'http://127.0.0.1:8787',
			// n8n stores no value equal to its default: another default would move credentials saved with this one.
			hint: "Your PropRadar service's address; for the local sandbox, what npm run sandbox or npm run demo prints.",
			description:
				'Address of the PropRadar API, without /v1. Use the address your PropRadar account gives.',
		},
		{
			displayName: 'Spending Ceiling',
			name: 'spendingCeilingMode',
			type: 'options',
			options: [
				{
					name: 'Ceiling per Execution',
					value: 'ceiling',
					description:
						'One execution spends at most the amount below through PropRadar nodes with this credential',
				},
				{
					name: 'No Ceiling',
					value: 'none',
					description: 'Each node run is bounded by its own Max Cost only',
				},
			],
			// Also what a credential saved before this choice gets: its amount works as before (0: no ceiling).
			default: 'ceiling',
			description:
				"Set one when workflows or AI agents you do not control use this credential. It bounds all of an execution's PropRadar nodes together, whatever their Max Cost says.",
		},
		{
			displayName: 'Spending Ceiling per Execution (USD)',
			name: 'spendingCeiling',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 10,
			displayOptions: { show: { spendingCeilingMode: ['ceiling'] } },
			hint: 'For none, choose No Ceiling above (a 0 saved earlier also means none).',
			description:
				'The most one execution may spend through PropRadar nodes with this credential, all together. A purchase that does not fit what is left is refused, nothing charged.',
		},
		{
			displayName: 'Allow Charging Automations',
			name: 'allowChargingAutomations',
			type: 'boolean',
			default: false,
			displayOptions: { show: { spendingCeilingMode: ['ceiling'] } },
			description:
				'Whether workflows using this credential may set up list automations that buy (phones, e-mails, marketing orders). PropRadar charges for those later, where no ceiling can bound them.',
		},
	];

	// n8n's request helper would send a user part as Basic authentication in place of the token.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		if (USER_PART.test(String(credentials.baseUrl ?? '').trim())) {
			throw new UserError('Base URL: remove the user name or password (before "@")', {
				description: 'Enter the address without it; the token goes in Access Token.',
			});
		}
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.accessToken ?? '')}`,
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "").replace(/\\/v1$/, "")}}',
			url: '/v1/lists',
			qs: { Limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'PropRadar does not accept this access token (invalid or expired)',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'Token refused: the subscription is inactive or lacks API access',
				},
			},
		],
	};
}
