export const HOMEY_API_VERSION: string;
export function installHomeyApi(root: string): Promise<{ dir: string; homeyApi(): unknown; socketIo2(): unknown }>;
