// Entities of SPEC.md section 3, as the API sends them.

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

export interface DashboardCounts {
  total_emails: number;
  read: number;
  unread: number;
  email_ignores: number;
  ej_not_found: number;
  email_same_subject_processing: number;
  email_same_subject_count: number;
}

/** A scraped email as the lists show it. */
export interface EmailListRow {
  id: number;
  email_from: string;
  subject_name: string;
  create_at: string;
  update_at: string;
}

export type JsonRecord = Record<string, unknown>;

export interface EmailJsonItem {
  id: number;
  subject_name: string;
  json_load_data: JsonRecord[];
}

export interface EmailDetails {
  id: number;
  from_email: string;
  to_email: string;
  subject: string;
  email_body: string;
  email_body_html: string;
  num_of_email: number;
  date_time_of_email: string;
  create_at: string;
  update_at: string;
}
