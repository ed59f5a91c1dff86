/**
 * The translator will not translate this (exit 2 of `replay --engine gpu`): what, where, why.
 * Every refusal is raised while translating, before anything is uploaded or dispatched.
 */
export class TranslationRefusal extends Error {
  override readonly name = 'TranslationRefusal';
  constructor(
    readonly reason: string,
    readonly address?: number,
    readonly instruction?: string,
  ) {
    super(
      `${address === undefined ? '' : `0x${address.toString(16)}: `}${instruction ? `${instruction}: ` : ''}${reason}`,
    );
  }
}
