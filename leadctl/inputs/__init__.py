"""What an operator types, as the service wants it: fields, date-times, phone numbers."""
