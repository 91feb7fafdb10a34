"""Contact Inquiries (/admin/inquiries): InquiriesState and InquiryRow (state.py), the page content (views.py)."""
