import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest, paths, toNodeError, writableAutomation } from '../../transport';
import { warn } from '../../money';
import { fail, listLocator, parameter, readListId } from '../../shared/parameters';
import { EMPTY_AUTOMATION } from '../../shared/vocabulary';
import { idsPicker, ownParameters, shownFor, starOptions } from '../shapes';
import { automationFields } from './fields';
import { readAutomation } from '../../shared/answers';
import { assertAllowed, monitorLists, optInProperties, readOptIns } from './monitoring';

const show = { resource: ['automation'], operation: ['configure'] };

const memberPicker = (displayName: string, name: string, description: string) =>
	idsPicker(
		displayName,
		name,
		'getMembers',
		`${description}; the list has the members who have joined (one still invited shows once they accept)`,
	);

export const description = shownFor(show, [
	listLocator(show),
	{
		displayName: 'Mode',
		name: 'configureMode',
		type: 'options',
		options: [
			{
				name: 'Update Only the Fields Given',
				value: 'update',
				description:
					'Read the current configuration, change the fields below, write it back: nothing else is lost',
			},
			{
				name: 'Replace the Whole Configuration',
				value: 'replace',
				description: 'Write exactly the fields below; every other field is reset',
			},
		],
		default: 'update',
	},
	{
		displayName: 'Automation',
		name: 'automation',
		type: 'collection',
		placeholder: 'Add Field',
		// In the order of the task (n8n's lint keeps a collection's options alphabetical): whether and
		// on what it fires, then what it does ("Then ...").
		description: 'Whether and on what the automation fires, then what it does each time',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Automation Enabled',
				name: 'isEnabled',
				type: 'boolean',
				default: true,
				description: 'Whether the automation runs: off, it fires on nothing',
			},
			{
				displayName: 'Fires On',
				name: 'Triggers',
				type: 'options',
				options: [
					{ name: 'New Matches', value: 'New Matches' },
					{ name: 'New Matches and Status Changes', value: 'New Matches,Status Changes' },
					{ name: 'Status Changes', value: 'Status Changes' },
				],
				default: 'New Matches',
				description:
					'What makes the automation fire: a property entering the list, a change of a property in it, or both',
			},
			{
				displayName: 'Then Add to Direct Mail Order ID',
				name: 'DirectMailOrderID',
				type: 'string',
				default: '',
				description: 'Direct-mail order the properties are added to (may cost per mail piece)',
			},
			{
				displayName: 'Then Add to Email Marketing Order ID',
				name: 'EmailMarketingOrderID',
				type: 'string',
				default: '',
				description: 'E-mail marketing order used (may cost per e-mail)',
			},
			idsPicker(
				'Then Add to List Names or IDs',
				'AddToLists',
				'getLists',
				'Lists the triggering properties are added to (not this list)',
			),
			memberPicker(
				'Then Daily Email to Member Names or IDs',
				'DailyEmailMemberIDs',
				'Members who get a daily e-mail',
			),
			idsPicker(
				'Then Export to Webhook Names or IDs',
				'ExportToWebhookIDs',
				'getWebhooks',
				'Webhooks called for each triggering property',
			),
			memberPicker(
				'Then Immediate Email to Member Names or IDs',
				'ImmediateEmailMemberIDs',
				'Members who get an e-mail at once',
			),
			memberPicker(
				'Then Mobile Notification to Member Names or IDs',
				'MobileNotificationMemberIDs',
				'Members who get a push notification',
			),
			...[
				['Email', 'e-mail addresses'],
				['Phone', 'phone numbers'],
			].map(([what, bought]) => ({
				displayName: `Then Purchase ${what}`,
				name: `Purchase${what}`,
				type: 'boolean' as const,
				default: false,
				description: `Whether to buy the owners' ${bought}. Charged per triggered record, non-refundable, with no Max Cost.`,
			})),
			idsPicker(
				'Then Remove From List Names or IDs',
				'RemoveFromLists',
				'getLists',
				'Lists the triggering properties are removed from (not this list)',
			),
			{
				displayName: 'Then Set Interest Level',
				name: 'SetInterestLevel',
				type: 'options',
				options: starOptions('Unset Stars (0)'),
				default: 0,
				description:
					'Stars given to every triggering property; 0 takes their stars away. Leave this field out to leave stars alone.',
			},
			{
				displayName: 'Then Set Status Level Name or ID',
				name: 'SetStatusLevel',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getStatusLevels' },
				default: 0,
				description:
					'Status given to every triggering property (0 = None); leave it out to keep statuses. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
	...optInProperties(
		'the list when it',
		'Whether this node may enable an automation that buys (phones, e-mails, mail orders), charged later with no Max Cost. Under a credential with a spending ceiling, the credential must allow it too.',
	),
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	const own = ownParameters(this, itemIndex, description);
	const mode = own.choice<'update' | 'replace'>('configureMode');
	const given = parameter(this, 'automation', itemIndex, {}) as IDataObject;
	const { fields, problem } = automationFields(given, listId);
	if (problem) fail(this, itemIndex, problem);
	if (Object.keys(fields).length === 0 && mode === 'update')
		fail(this, itemIndex, 'Automation: add at least one field to change');
	const { allowCharging, turnOn } = readOptIns(this, itemIndex);
	const current =
		mode === 'update' ? writableAutomation(await readAutomation(this, listId, itemIndex)) : {};
	const written = { ...EMPTY_AUTOMATION, ...current, ...fields };
	await assertAllowed(this, listId, written, allowCharging, itemIndex);
	const enabled = Number(written.isEnabled) === 1;
	const unmonitored = enabled
		? await monitorLists(this, [listId], turnOn, itemIndex, 'the automation was not written')
		: [];
	let response: IDataObject;
	try {
		response = await apiRequest(this, {
			method: 'PUT',
			path: paths.automation(listId),
			body: written as IDataObject,
			repeatable: true,
			itemIndex,
		});
	} catch (error) {
		// A level not set is written null (0 would unset stars or set status None), Triggers not set
		// as '': said with the service's refusal of the write, should it refuse them.
		const empties = [
			written.SetInterestLevel === null &&
				'SetInterestLevel null (stars left as they are; 0 would unset them)',
			written.SetStatusLevel === null &&
				'SetStatusLevel null (status left as it is; 0 would set status None)',
			written.Triggers === '' && 'Triggers "" (fires on nothing)',
		].filter(Boolean);
		if (error instanceof NodeApiError && error.httpCode === '400' && empties.length > 0) {
			error.description =
				`${error.description ?? ''} The automation is written whole, and fields not set went as ${empties.join(', ')}: what the node sends for them, since the API documents give no empty value. If PropRadar refuses that, give Then Set Interest Level, Then Set Status Level Name or ID and Fires On in this node, or set them once in PropRadar.`.trim();
		}
		throw toNodeError(this.getNode(), error, itemIndex);
	}
	const firesOnNothing = !enabled
		? `the automation of list ${listId} is written switched off (Automation Enabled is off), so it fires on nothing`
		: !written.Triggers
			? `the automation of list ${listId} is enabled with nothing to fire on, so it fires on nothing: set Fires On (New Matches, Status Changes or both)`
			: undefined;
	if (firesOnNothing) warn(this, `Item at index ${itemIndex}: ${firesOnNothing}.`);
	return [
		{
			ListID: listId,
			updateCount: response.updateCount ?? 0,
			...written,
			...(unmonitored.length > 0 ? { monitoringTurnedOn: true } : {}),
		},
	];
}
