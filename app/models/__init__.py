"""Every table of the product; importing this package registers them all on SQLModel.metadata."""

from app.models.billing import Invoice, InvoiceItem, InvoiceNumberCounter, Payment, StripeEvent
from app.models.careers import JobApplication, JobOpening
from app.models.commerce import Order, OrderItem, OrderNumberCounter, Price, Product
from app.models.content import PortfolioProject, Service, TeamMember, Testimonial
from app.models.conversation import ConversationRead, MessageMailSetting
from app.models.inquiry import ContactInquiry, NewsletterSubscriber
from app.models.meeting import BookingLink, Meeting, MeetingType
from app.models.project import Organization, Project, ProjectMember, ProjectMilestone, ProjectTimeEntry
from app.models.second_factor import (
    Passkey,
    RecoveryCode,
    SignInChallenge,
    TotpFactor,
    TrustedBrowser,
    WebAuthnCeremony,
)
from app.models.system import AuditLog, CompanySettings, EmailOutbox, RateLimitEvent
from app.models.user import KnownSignInAddress, PasswordResetToken, RefreshToken, User, VerificationCode

__all__ = [
    "AuditLog",
    "BookingLink",
    "CompanySettings",
    "ContactInquiry",
    "ConversationRead",
    "EmailOutbox",
    "Invoice",
    "InvoiceItem",
    "InvoiceNumberCounter",
    "JobApplication",
    "JobOpening",
    "KnownSignInAddress",
    "Meeting",
    "MeetingType",
    "MessageMailSetting",
    "NewsletterSubscriber",
    "Order",
    "OrderItem",
    "OrderNumberCounter",
    "Organization",
    "Passkey",
    "PasswordResetToken",
    "Payment",
    "PortfolioProject",
    "Price",
    "Product",
    "Project",
    "ProjectMember",
    "ProjectMilestone",
    "ProjectTimeEntry",
    "RateLimitEvent",
    "RecoveryCode",
    "RefreshToken",
    "Service",
    "SignInChallenge",
    "StripeEvent",
    "TeamMember",
    "Testimonial",
    "TotpFactor",
    "TrustedBrowser",
    "User",
    "VerificationCode",
    "WebAuthnCeremony",
]
