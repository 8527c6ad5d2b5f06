/** The file descriptor of the hub <-> app channel in the app's process (0-2 are stdio). */
export const CHANNEL_FD = 3;
