export interface Target {
  name: string;
  arch: string;
  dpkg: string;
  nodePackage: string;
  node: string;
  gypArch: string;
  cross: string;
  elf: string;
}
export const TARGETS: readonly Target[];
export function target(name: string): Target;
export function hostTarget(): Target;
