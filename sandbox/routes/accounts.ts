import { auth } from '../http';
import type { RouteModule } from '../types';

const STATUS_LABELS = [
	'New Lead',
	'Contacted',
	'Follow Up',
	'Appointment Set',
	'Offer Made',
	'Under Contract',
	'Closed',
	'Not Interested',
	'Do Not Contact',
];

export const accountRoutes: RouteModule = (app) => {
	app.get('/v1/accounts/members', async (request) => {
		const account = auth(request);
		const suffix = account.id.replace('acct-', '');
		return {
			results: [
				{
					MemberKey: `M${suffix}01`,
					UserName: 'Alex Owner',
					UserEmail: `owner+${suffix}@sandbox.example`,
					Role: 'Owner',
					Status: 'Active',
				},
				{
					MemberKey: `M${suffix}02`,
					UserName: 'Sam Agent',
					UserEmail: `agent+${suffix}@sandbox.example`,
					Role: 'Member',
					Status: 'Active',
				},
				{
					MemberKey: `M${suffix}03`,
					UserName: 'Pat Assistant',
					UserEmail: `assistant+${suffix}@sandbox.example`,
					Role: 'Member',
					Status: 'Invited',
				},
			],
		};
	});

	app.get('/v1/accounts/preferences/statuses', async (request) => {
		auth(request);
		return { results: STATUS_LABELS.map((Label, index) => ({ Value: index + 1, Label })) };
	});
};
