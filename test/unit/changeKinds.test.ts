/**
 * The trigger's Change Kinds on what the service delivers: a property listed, or put in
 * foreclosure, where it was not, comes as a status that changes from None
 * (`Listing Status:None:Active`, `Foreclosure Status:None:Preforeclosure`).
 */
import type { IDataObject } from 'n8n-workflow';

import { wanted, type ChangeKind } from '../../nodes/PropRadar/trigger/delivery';

const change = (...changes: string[]): IDataObject =>
	Object.fromEntries([
		['TriggerType', 'Change'],
		...changes.map((text, index) => [`Change${index + 1}`, text]),
	]);
const keeps = (event: IDataObject, kind: ChangeKind) =>
	wanted(event, { events: ['statusChanges'], changeKinds: [kind] });

test.each<[string, ChangeKind[]]>([
	['Listing Status:None:Active', ['newListing', 'listingStatus']],
	['Listing Status::Active', ['newListing', 'listingStatus']],
	['Listing Status:Active:Pending', ['listingStatus']],
	['Listing Status:Expired:Active', ['listingStatus']],
	['Foreclosure Status:None:Preforeclosure', ['newForeclosure', 'foreclosureStatus']],
	['Foreclosure Stage:none:Auction', ['newForeclosure', 'foreclosureStatus']],
	['Foreclosure Status:Preforeclosure:Auction', ['foreclosureStatus']],
	['Listing Price:100:90', ['listingPrice']],
	['Listing Date:None:1/2/2026', ['newListing']],
	['Auction Date:1/2/2026:2/2/2026', ['newForeclosure']],
])('%s is a change of the kinds %j, and of no other', (text, kinds) => {
	const event = change(text);
	const all: ChangeKind[] = [
		'newTransfer',
		'newLoan',
		'newListing',
		'listingStatus',
		'listingPrice',
		'newForeclosure',
		'foreclosureStatus',
	];
	expect(all.filter((kind) => keeps(event, kind))).toEqual(kinds);
});

test('a new listing among other changes of the same event is kept', () => {
	expect(keeps(change('Listing Price:100:90', 'Listing Status:None:Active'), 'newListing')).toBe(
		true,
	);
	expect(keeps(change('Listing Price:100:90', 'Listing Status:Active:Sold'), 'newListing')).toBe(
		false,
	);
});
