export { liveRegistrations, registrationSlot } from './slot';
export type { Registration } from './slot';
export { readSettings, register, registrationIsLive } from './register';
export type { TriggerSettings } from './register';
export { unregister } from './unregister';
