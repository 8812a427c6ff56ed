import { InvalidArgumentError } from 'commander';

/** Collects a repeated option's values. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Parses a whole-number option (1 or more), naming the option when the value is not one. */
export const whole = (name: string) => (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new InvalidArgumentError(`${name} is a whole number, 1 or more.`);
  return number;
};
