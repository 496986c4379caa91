import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, formatCents, pageThrough, paths, toCents, type ApiEnvelope } from '../../transport';
import { chargedRequest, chargeProperties, quoteRecord } from '../../shared/charges';
import { criteriaProperties } from '../../shared/criteria';
import { fieldsPicker } from '../../shared/fieldsets';
import { readCriteriaParameters, readFields, readLimit, readSort, returnAllProperties, sortProperty } from '../../shared/parameters';
import type { RunState } from '../types';

const show = { resource: ['property'], operation: ['search'] };
export const SEARCH_PAGE_SIZE = 500;

export const description: INodeProperties[] = [
	...criteriaProperties(show, true),
	...returnAllProperties(show),
	sortProperty(show, ['PropID', 'AVM', 'AvailableEquity', 'EquityPercent', 'SqFt', 'YearBuilt', 'LastTransferRecDate', 'ZipFive']),
	fieldsPicker('property', { show }, 'Tip: to read a list\'s properties in full, use the In List criterion.'),
	...chargeProperties(show, 'the matching properties'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunState): Promise<IDataObject[]> {
	const criteria = readCriteriaParameters(this, itemIndex);
	const request = {
		method: 'POST' as const,
		path: paths.properties(),
		qs: { Fields: readFields(this, itemIndex, 'property'), ...readSort(this, itemIndex) },
		body: { Criteria: criteria as unknown as IDataObject[] },
		itemIndex,
	};
	const limit = readLimit(this, itemIndex);
	if (this.getNodeParameter('chargeMode', itemIndex) === 'preview') {
		const first = Math.min(limit ?? SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE);
		const quote = await apiRequest<ApiEnvelope>(this, {
			...request,
			qs: { ...request.qs, Start: 0, Limit: first, Purchase: 0 },
			repeatable: true,
		});
		const total = quote.totalResultCount ?? 0;
		const wanted = Math.min(limit ?? total, total);
		const record = quoteRecord(quote, { totalResultCount: total, wanted });
		if (wanted > first) {
			const perRecord = quote.resultCount ? toCents(quote.totalCost) / quote.resultCount : 0;
			record.note = `The quote covers the first page of ${first}; ${wanted} properties are wanted, fetched ${SEARCH_PAGE_SIZE} per request, each page quoted before it is bought. At this page's rate all of them would cost about $${formatCents(Math.round(perRecord * wanted))}.`;
		}
		return [record];
	}
	const { records } = await pageThrough<IDataObject>(async (start, pageLimit) => {
		const { response } = await chargedRequest(this, run.budget, itemIndex, {
			...request,
			qs: { ...request.qs, Start: start, Limit: pageLimit },
		});
		return response;
	}, { pageSize: SEARCH_PAGE_SIZE, limit });
	return records;
}

