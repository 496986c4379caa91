export { liveRegistrations, registrationSlot } from './settle';
export type { Registration, TriggerSettings } from './settle';
export { register, registrationIsLive } from './register';
export { unregister } from './unregister';
