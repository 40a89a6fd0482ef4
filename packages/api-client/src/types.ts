// Entities of SPEC.md section 3, as the API sends them.

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface BankPassword {
  id: number;
  bank_name: string;
  /** Masked in lists; the clear text comes only from revealBankPassword. */
  bank_pass: string;
  create_at: string;
  update_at: string;
}

export interface BankMsp {
  id: number;
  msp: string;
  bank_name: string;
  create_at: string;
  update_at: string;
}

export interface Paginated<T> {
  count: number;
  total_pages: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
