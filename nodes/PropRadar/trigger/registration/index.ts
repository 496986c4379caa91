export { liveRegistrations, registrationSlot } from './slot';
export type { Registration, TriggerSettings } from './slot';
export { register, registrationIsLive } from './register';
export { unregister } from './unregister';
