import type { INodeProperties } from 'n8n-workflow';

import { paths } from '../../transport';
import { freeRequest } from '../shapes';

export const description: INodeProperties[] = [];

export const execute = freeRequest(() => ({ method: 'GET', path: paths.members() }));
